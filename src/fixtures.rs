//! Fixtures: pairs of YUV frame sequences described by manifests in `fixtures/*.toml` and
//! synthesised (random, checkerboards) or derived from photographs into the ignored `fixtures/cache/`.
//!
//! A manifest names the generator, the size, bit depth, chroma layout, matrix and range, the
//! number of frame pairs, the seed and the SHA-256 of the raw frames. Raw layout: for each
//! frame index, the reference frame then the distorted frame, each as Y, U and V planes in row
//! order, one byte per sample up to 8 bits, else two bytes little endian.
//!
//! Guarantees: [`load`] returns frames whose raw bytes hash to the manifest's `sha256`, or an
//! error naming the file and the reason (bad manifest field, wrong size, truncated file,
//! sample above the bit depth, hash mismatch). Photographs need the PNG sources (`just
//! fixtures`); without them [`load`] returns [`NotAvailable`].

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context as _, Result};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::ssimulacra2::yuv::{
    quantise, rgb_to_yuv_codes, Chroma, Matrix, Range, YuvFormat, YuvFrame,
};

/// Environment variable naming the folder of the PNG sources (default `fixtures/cache/skimage`).
pub const SOURCES_ENV: &str = "BINADE_FIXTURE_SOURCES";

/// The project root the checks run in: the working directory. Cargo starts tests there, and
/// the GPU machine's script starts the carried test binaries there, so fixtures are found
/// wherever the tree lies (a path fixed at compile time would point to the build machine).
pub fn project_root() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

/// A fixture that cannot be built here because its source photographs are missing.
#[derive(Debug, thiserror::Error)]
#[error("{manifest}: not available: {reason}; run `just fixtures` (or set {SOURCES_ENV} to a folder with the PNGs)")]
pub struct NotAvailable {
    /// The manifest.
    pub manifest: String,
    /// What is missing.
    pub reason: String,
}

/// Which frames a fixture holds and how they are made.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "generator", rename_all = "lowercase", deny_unknown_fields)]
pub enum Generator {
    /// Gray and coloured squares of `square` pixels; the distorted frame is the reference
    /// shifted right by `shift` pixels; both move right one pixel per frame.
    Checkerboard {
        /// Side of a square in pixels.
        square: usize,
        /// Horizontal shift of the distorted frame.
        shift: usize,
    },
    /// Uniformly random samples; the distorted frame adds uniform noise of +-`noise` (in 8-bit
    /// steps, scaled to the bit depth).
    Random {
        /// Noise amplitude in 8-bit code steps.
        noise: u32,
    },
    /// A photograph from the scikit-image data folder, scaled to cover the frame and cropped;
    /// each frame moves the crop by `motion` pixels right and down.
    Photo {
        /// PNG file name of the reference.
        source: String,
        /// The distortion applied to the reference.
        distortion: Distortion,
        /// Crop motion per frame, in pixels.
        motion: usize,
    },
}

/// How a photograph's distorted frames differ from the reference.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Distortion {
    /// JPEG at `quality` (1..=100), encoded and decoded by the `image` crate.
    Jpeg {
        /// Encoder quality.
        quality: u8,
    },
    /// Box blur of `radius` pixels (a `(2r + 1)^2` mean on 8-bit RGB).
    Blur {
        /// Box radius.
        radius: usize,
    },
    /// Uniform noise of +-`amplitude` on each 8-bit RGB sample.
    Noise {
        /// Noise amplitude.
        amplitude: i32,
    },
    /// Another photograph of the same scene (a stereo pair), same geometry.
    Other {
        /// PNG file name of the distorted source.
        source: String,
    },
}

/// A parsed manifest.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// One line saying what the fixture is for.
    pub description: String,
    /// Luma width.
    pub width: usize,
    /// Luma height.
    pub height: usize,
    /// Bits per sample, 8..=16.
    pub bit_depth: u32,
    /// Chroma layout.
    pub chroma: Chroma,
    /// YUV matrix.
    pub matrix: Matrix,
    /// Quantisation range.
    pub range: Range,
    /// Number of frame pairs.
    pub frames: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// SHA-256 of the raw frames, lowercase hex.
    pub sha256: String,
    /// The generator and its parameters.
    pub content: Generator,
}

impl Manifest {
    /// The frame format.
    pub fn format(&self) -> YuvFormat {
        YuvFormat {
            width: self.width,
            height: self.height,
            bit_depth: self.bit_depth,
            chroma: self.chroma,
            matrix: self.matrix,
            range: self.range,
        }
    }

    /// True when the frames are derived from photographs (need `just fixtures`).
    pub fn is_natural(&self) -> bool {
        matches!(self.content, Generator::Photo { .. })
    }

    /// Bytes of the raw file.
    pub fn raw_len(&self) -> usize {
        let f = self.format();
        2 * self.frames * f.samples_per_frame() * f.bytes_per_sample()
    }
}

/// A loaded fixture: its manifest and its frame pairs (reference, distorted).
#[derive(Clone, Debug)]
pub struct Fixture {
    /// The fixture's name (manifest file stem).
    pub name: String,
    /// The manifest file.
    pub path: PathBuf,
    /// The parsed manifest.
    pub manifest: Manifest,
    /// Frame pairs, frame 0 first.
    pub pairs: Vec<(YuvFrame, YuvFrame)>,
}

/// Where manifests, the cache and the photograph sources are.
#[derive(Clone, Debug)]
pub struct Dirs {
    /// Folder of the `*.toml` manifests.
    pub manifests: PathBuf,
    /// Folder of the raw frame files; `None` generates in memory every time.
    pub cache: Option<PathBuf>,
    /// Folder of the PNG sources.
    pub sources: PathBuf,
}

impl Dirs {
    /// `root/fixtures`, its `cache/`, and the sources from [`SOURCES_ENV`] or
    /// `root/fixtures/cache/skimage`.
    pub fn under(root: &Path) -> Dirs {
        let manifests = root.join("fixtures");
        let cache = manifests.join("cache");
        let sources = std::env::var_os(SOURCES_ENV)
            .map(PathBuf::from)
            .unwrap_or_else(|| cache.join("skimage"));
        Dirs {
            manifests,
            cache: Some(cache),
            sources,
        }
    }
}

/// Parses a manifest; errors name the file and the field.
pub fn read_manifest(path: &Path) -> Result<Manifest> {
    let text =
        fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let m: Manifest =
        toml::from_str(&text).map_err(|e| anyhow!("{}: {}", path.display(), e.message()))?;
    m.format().validate().map_err(|e| {
        anyhow!(
            "{}: field `bit_depth`/`width`/`height`: {e}",
            path.display()
        )
    })?;
    if m.frames == 0 {
        bail!("{}: field `frames`: must be at least 1", path.display());
    }
    if m.sha256.len() != 64 || !m.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("{}: field `sha256`: not 64 hex digits", path.display());
    }
    Ok(m)
}

/// Every manifest in `dir`, sorted by name.
pub fn list(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in
        fs::read_dir(dir).with_context(|| format!("{}: cannot list fixtures", dir.display()))?
    {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) == Some("toml") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Loads the fixture of manifest `path`: from the cache when its raw file is there (checked
/// for size, bit depth and hash), else made anew, checked against the hash and written to the
/// cache.
pub fn load(path: &Path, dirs: &Dirs) -> Result<Fixture> {
    let manifest = read_manifest(path)?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("fixture")
        .to_string();
    let raw_path = dirs.cache.as_ref().map(|c| c.join(format!("{name}.yuv")));
    let pairs = match raw_path.as_ref().filter(|p| p.exists()) {
        Some(raw) => read_raw(raw, &manifest)?,
        None => {
            let bytes = generate_raw(path, &manifest, &dirs.sources)?;
            let hash = sha256_hex(&bytes);
            if hash != manifest.sha256 {
                bail!(
                    "{}: frames made from the manifest hash to {hash}, the manifest says {}",
                    path.display(),
                    manifest.sha256
                );
            }
            if let Some(raw) = raw_path {
                write_atomic(&raw, &bytes)?;
            }
            decode_raw(&bytes, &manifest)
        }
    };
    Ok(Fixture {
        name,
        path: path.to_path_buf(),
        manifest,
        pairs,
    })
}

/// Reads a raw frame file and checks it against the manifest: exact size, every sample within
/// the bit depth, SHA-256.
pub fn read_raw(raw: &Path, manifest: &Manifest) -> Result<Vec<(YuvFrame, YuvFrame)>> {
    let bytes = fs::read(raw).with_context(|| format!("{}: cannot read", raw.display()))?;
    let f = manifest.format();
    let expected = manifest.raw_len();
    let what = format!(
        "{} frame pairs of {}x{} {} {}-bit",
        manifest.frames,
        f.width,
        f.height,
        f.chroma.name(),
        f.bit_depth
    );
    if bytes.len() < expected {
        bail!(
            "{}: truncated: {} bytes, expected {expected} ({what})",
            raw.display(),
            bytes.len()
        );
    }
    if bytes.len() > expected {
        bail!(
            "{}: wrong size: {} bytes, expected {expected} ({what})",
            raw.display(),
            bytes.len()
        );
    }
    if f.bytes_per_sample() == 2 {
        let max = f.max_code();
        if let Some(i) = bytes
            .chunks_exact(2)
            .position(|c| u16::from_le_bytes([c[0], c[1]]) > max)
        {
            bail!(
                "{}: wrong bit depth: sample at byte {} exceeds {max}, the {}-bit maximum",
                raw.display(),
                2 * i,
                f.bit_depth
            );
        }
    }
    let hash = sha256_hex(&bytes);
    if hash != manifest.sha256 {
        bail!(
            "{}: hash mismatch: sha256 {hash}, the manifest says {}",
            raw.display(),
            manifest.sha256
        );
    }
    Ok(decode_raw(&bytes, manifest))
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let tmp = path.with_extension("yuv.tmp");
    let mut f =
        fs::File::create(&tmp).with_context(|| format!("{}: cannot create", tmp.display()))?;
    f.write_all(bytes)
        .with_context(|| format!("{}: cannot write", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("{}: cannot rename into place", path.display()))
}

/// Splits raw bytes (already checked for size) into frame pairs.
fn decode_raw(bytes: &[u8], manifest: &Manifest) -> Vec<(YuvFrame, YuvFrame)> {
    let f = manifest.format();
    let bps = f.bytes_per_sample();
    let mut samples = bytes.chunks_exact(bps).map(|c| {
        if bps == 1 {
            c[0] as u16
        } else {
            u16::from_le_bytes([c[0], c[1]])
        }
    });
    let mut frame = || {
        let planes = std::array::from_fn(|p| {
            let (w, h) = f.plane_size(p);
            samples.by_ref().take(w * h).collect()
        });
        YuvFrame { format: f, planes }
    };
    (0..manifest.frames).map(|_| (frame(), frame())).collect()
}

/// Serialises frame pairs in the raw layout.
pub fn encode_raw(pairs: &[(YuvFrame, YuvFrame)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (a, b) in pairs {
        for frame in [a, b] {
            for plane in &frame.planes {
                for &s in plane {
                    if frame.format.bytes_per_sample() == 1 {
                        out.push(s as u8);
                    } else {
                        out.extend_from_slice(&s.to_le_bytes());
                    }
                }
            }
        }
    }
    out
}

/// Generates the raw bytes of a manifest (no hash check).
pub fn generate_raw(path: &Path, manifest: &Manifest, sources: &Path) -> Result<Vec<u8>> {
    let f = manifest.format();
    let pairs = match &manifest.content {
        Generator::Checkerboard { square, shift } => {
            checkerboard(&f, manifest.frames, *square, *shift, path)?
        }
        Generator::Random { noise } => random(&f, manifest.frames, *noise, manifest.seed),
        Generator::Photo {
            source,
            distortion,
            motion,
        } => photo(path, manifest, sources, source, distortion, *motion)?,
    };
    Ok(encode_raw(&pairs))
}

fn frame_from_fn(f: &YuvFormat, mut sample: impl FnMut(usize, usize, usize) -> u16) -> YuvFrame {
    let planes = std::array::from_fn(|p| {
        let (w, h) = f.plane_size(p);
        (0..w * h).map(|i| sample(p, i % w, i / w)).collect()
    });
    YuvFrame { format: *f, planes }
}

/// Levels of the checkerboard: luma dark/bright and chroma offsets, in 8-bit steps.
fn checker_sample(f: &YuvFormat, plane: usize, on: bool) -> u16 {
    let k = 1u16 << (f.bit_depth - 8);
    match (plane, on) {
        (0, true) => 235 * k,
        (0, false) => 16 * k,
        (1, true) => 160 * k,
        (1, false) => 96 * k,
        (_, true) => 100 * k,
        (_, false) => 150 * k,
    }
}

fn checkerboard(
    f: &YuvFormat,
    frames: usize,
    square: usize,
    shift: usize,
    path: &Path,
) -> Result<Vec<(YuvFrame, YuvFrame)>> {
    if square == 0 {
        bail!("{}: field `square`: must be at least 1", path.display());
    }
    let (sx, sy) = f.chroma.shifts();
    let board = |offset: usize| {
        frame_from_fn(f, |p, x, y| {
            let (lx, ly) = if p == 0 { (x, y) } else { (x << sx, y << sy) };
            let on = ((lx + offset) / square + ly / square) % 2 == 1;
            checker_sample(f, p, on)
        })
    };
    Ok((0..frames).map(|k| (board(k), board(k + shift))).collect())
}

fn random(f: &YuvFormat, frames: usize, noise: u32, seed: u64) -> Vec<(YuvFrame, YuvFrame)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let max = f.max_code() as i64;
    let amp = (noise as i64) << (f.bit_depth - 8);
    (0..frames)
        .map(|_| {
            let a = frame_from_fn(f, |_, _, _| rng.random_range(0..=max) as u16);
            let mut b = a.clone();
            for plane in b.planes.iter_mut() {
                for s in plane.iter_mut() {
                    *s = (*s as i64 + rng.random_range(-amp..=amp)).clamp(0, max) as u16;
                }
            }
            (a, b)
        })
        .collect()
}

/// An 8-bit RGB image.
#[derive(Clone, Debug)]
struct Rgb8 {
    width: usize,
    height: usize,
    data: Vec<u8>,
}

fn read_png(sources: &Path, name: &str, manifest_path: &Path) -> Result<Rgb8> {
    let path = sources.join(name);
    if !path.exists() {
        return Err(NotAvailable {
            manifest: manifest_path.display().to_string(),
            reason: format!("{} is missing", path.display()),
        }
        .into());
    }
    let img = image::open(&path)
        .with_context(|| format!("{}: cannot decode", path.display()))?
        .to_rgb8();
    Ok(Rgb8 {
        width: img.width() as usize,
        height: img.height() as usize,
        data: img.into_raw(),
    })
}

/// The frame-sized crop of `src` scaled by `scale` (bilinear, in `f64`), offset by `(ox, oy)`
/// pixels of the scaled image.
fn crop_scaled(src: &Rgb8, scale: f64, ox: usize, oy: usize, w: usize, h: usize) -> Rgb8 {
    let at = |x: usize, y: usize, c: usize| src.data[(y * src.width + x) * 3 + c] as f64;
    let mut data = Vec::with_capacity(w * h * 3);
    for y in 0..h {
        let fy = (((y + oy) as f64 + 0.5) / scale - 0.5).clamp(0.0, (src.height - 1) as f64);
        let y0 = fy as usize;
        let y1 = (y0 + 1).min(src.height - 1);
        let ty = fy - y0 as f64;
        for x in 0..w {
            let fx = (((x + ox) as f64 + 0.5) / scale - 0.5).clamp(0.0, (src.width - 1) as f64);
            let x0 = fx as usize;
            let x1 = (x0 + 1).min(src.width - 1);
            let tx = fx - x0 as f64;
            for c in 0..3 {
                let top = at(x0, y0, c) * (1.0 - tx) + at(x1, y0, c) * tx;
                let bottom = at(x0, y1, c) * (1.0 - tx) + at(x1, y1, c) * tx;
                data.push((top * (1.0 - ty) + bottom * ty).round().clamp(0.0, 255.0) as u8);
            }
        }
    }
    Rgb8 {
        width: w,
        height: h,
        data,
    }
}

fn jpeg(img: &Rgb8, quality: u8) -> Result<Rgb8> {
    let mut buf = Vec::new();
    let mut enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut buf, quality);
    enc.encode(
        &img.data,
        img.width as u32,
        img.height as u32,
        image::ColorType::Rgb8,
    )?;
    let back = image::load_from_memory_with_format(&buf, image::ImageFormat::Jpeg)?.to_rgb8();
    Ok(Rgb8 {
        width: img.width,
        height: img.height,
        data: back.into_raw(),
    })
}

fn box_blur(img: &Rgb8, radius: usize) -> Rgb8 {
    let (w, h) = (img.width, img.height);
    let mut data = vec![0u8; w * h * 3];
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let (mut sum, mut n) = (0u32, 0u32);
                for yy in y.saturating_sub(radius)..=(y + radius).min(h - 1) {
                    for xx in x.saturating_sub(radius)..=(x + radius).min(w - 1) {
                        sum += img.data[(yy * w + xx) * 3 + c] as u32;
                        n += 1;
                    }
                }
                data[(y * w + x) * 3 + c] = ((sum + n / 2) / n) as u8;
            }
        }
    }
    Rgb8 {
        width: w,
        height: h,
        data,
    }
}

fn add_noise(img: &Rgb8, amplitude: i32, rng: &mut Xoshiro256PlusPlus) -> Rgb8 {
    let data = img
        .data
        .iter()
        .map(|&v| (v as i32 + rng.random_range(-amplitude..=amplitude)).clamp(0, 255) as u8)
        .collect();
    Rgb8 {
        width: img.width,
        height: img.height,
        data,
    }
}

/// YUV of an 8-bit RGB image: codes per pixel in `f64`, chroma averaged over the subsampled
/// block, then rounded.
fn rgb8_to_yuv(img: &Rgb8, f: &YuvFormat) -> YuvFrame {
    let codes: Vec<[f64; 3]> = img
        .data
        .chunks_exact(3)
        .map(|p| {
            rgb_to_yuv_codes(
                [
                    p[0] as f64 / 255.0,
                    p[1] as f64 / 255.0,
                    p[2] as f64 / 255.0,
                ],
                f,
            )
        })
        .collect();
    let (sx, sy) = f.chroma.shifts();
    let max = f.max_code();
    frame_from_fn(f, |p, x, y| {
        if p == 0 {
            return quantise(codes[y * f.width + x][0], max);
        }
        let (mut sum, mut n) = (0.0, 0.0);
        for yy in (y << sy)..((y + 1) << sy).min(f.height) {
            for xx in (x << sx)..((x + 1) << sx).min(f.width) {
                sum += codes[yy * f.width + xx][p];
                n += 1.0;
            }
        }
        quantise(sum / n, max)
    })
}

fn photo(
    path: &Path,
    manifest: &Manifest,
    sources: &Path,
    source: &str,
    distortion: &Distortion,
    motion: usize,
) -> Result<Vec<(YuvFrame, YuvFrame)>> {
    let f = manifest.format();
    let src = read_png(sources, source, path)?;
    let other = match distortion {
        Distortion::Other { source } => Some(read_png(sources, source, path)?),
        _ => None,
    };
    let travel = motion * (manifest.frames - 1);
    let scale = ((f.width + travel) as f64 / src.width as f64)
        .max((f.height + travel) as f64 / src.height as f64);
    let (sw, sh) = (
        (src.width as f64 * scale) as usize,
        (src.height as f64 * scale) as usize,
    );
    let (cx, cy) = (
        sw.saturating_sub(f.width + travel) / 2,
        sh.saturating_sub(f.height + travel) / 2,
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(manifest.seed);
    let mut pairs = Vec::new();
    for k in 0..manifest.frames {
        let (ox, oy) = (cx + k * motion, cy + k * motion);
        let reference = crop_scaled(&src, scale, ox, oy, f.width, f.height);
        let distorted = match distortion {
            Distortion::Jpeg { quality } => jpeg(&reference, *quality)?,
            Distortion::Blur { radius } => box_blur(&reference, *radius),
            Distortion::Noise { amplitude } => add_noise(&reference, *amplitude, &mut rng),
            Distortion::Other { .. } => match &other {
                Some(o) => crop_scaled(o, scale, ox, oy, f.width, f.height),
                None => bail!("{}: distorted source missing", path.display()),
            },
        };
        pairs.push((rgb8_to_yuv(&reference, &f), rgb8_to_yuv(&distorted, &f)));
    }
    Ok(pairs)
}
