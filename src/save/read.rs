//! Reading a file srtrack is pointed at: only a regular file (through symbolic links), opened
//! without blocking, and never more of it than a limit, whatever the file system says of it.

use std::fs::{File, FileType, Metadata};
use std::io::{self, Read};
use std::os::unix::fs::FileTypeExt as _;
use std::path::Path;

use rustix::fs::{Mode, OFlags};

/// Why a file was not read.
#[derive(Debug)]
pub enum Unread {
    Io(io::Error),
    /// Not a regular file: what it is (`a FIFO (named pipe)`).
    NotAFile(&'static str),
    /// Larger than the limit: its size, or (`or_more`) the bytes read before the limit stopped it.
    TooBig {
        bytes: u64,
        or_more: bool,
    },
}

impl Unread {
    /// The reason in words: `what` is what the file should be (`a save file`); `too_big` words
    /// the size (`N bytes` or `N bytes or more`) as the caller's over-limit sentence.
    pub fn message(&self, what: &str, too_big: impl FnOnce(&str) -> String) -> String {
        match self {
            Unread::Io(e) => super::io_message(e),
            Unread::NotAFile(kind) => format!("it is {kind}, not {what}"),
            Unread::TooBig { bytes, or_more } => too_big(&format!(
                "{bytes} bytes{}",
                if *or_more { " or more" } else { "" }
            )),
        }
    }
}

/// What a file that is not a regular file is, in words.
pub fn kind(file_type: FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a FIFO (named pipe)"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

fn regular(meta: &Metadata) -> Result<(), Unread> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(Unread::NotAFile(kind(meta.file_type())))
    }
}

/// Opens a regular file for reading: anything else is refused before it is opened, and the
/// open does not block should a FIFO take its place in between (the opened file is checked
/// again). Reads of a regular file never block, whatever `O_NONBLOCK` says.
pub fn open(path: &Path) -> Result<(File, Metadata), Unread> {
    let through = |e| Unread::Io(super::atomic::through_link(path, e));
    regular(&std::fs::metadata(path).map_err(through)?)?;
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| through(e.into()))?;
    let file = File::from(fd);
    let meta = file.metadata().map_err(Unread::Io)?;
    regular(&meta)?;
    Ok((file, meta))
}

/// The bytes of the regular file at `path`, at most `limit` of them: a larger one is refused,
/// by the size the file system gives before it is read, and by what is read after.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, Unread> {
    let (file, meta) = open(path)?;
    if meta.len() > limit {
        return Err(Unread::TooBig {
            bytes: meta.len(),
            or_more: false,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(Unread::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Unread::TooBig {
            bytes: bytes.len() as u64,
            or_more: true,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Given a file whose size the file system gives as 0 but that holds more (as /proc's
    /// files do), when it is read with a limit below what it holds, then it is refused.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_is_read_to_its_limit_whatever_its_size_says() {
        let path = Path::new("/proc/self/maps");
        assert_eq!(std::fs::metadata(path).unwrap().len(), 0);
        match read(path, 16) {
            Err(Unread::TooBig { bytes, or_more }) => assert!(bytes == 17 && or_more),
            other => panic!("{other:?}"),
        }
        assert!(read(path, 1 << 20).is_ok());
    }
}
