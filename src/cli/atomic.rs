//! Writing a command's output file whole or not at all.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

/// Writes `path` through `write`: into a new temporary file in the same folder, flushed and
/// synced, then renamed over `path`. On any error the temporary file is removed and `path` is
/// left as it was.
pub fn write_replacing(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{}: not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.binade-{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| -> Result<()> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .with_context(|| {
                format!(
                    "{}: cannot create a file in {}",
                    path.display(),
                    dir.display()
                )
            })?;
        let mut buf = BufWriter::with_capacity(1 << 20, file);
        (|| -> std::io::Result<()> {
            write(&mut buf)?;
            buf.into_inner().map_err(|e| e.into_error())?.sync_all()
        })()
        .with_context(|| format!("{}: writing {}", path.display(), tmp.display()))
    })()
    .and_then(|()| {
        std::fs::rename(&tmp, path).with_context(|| {
            format!(
                "{}: cannot rename the finished file into place",
                path.display()
            )
        })
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
