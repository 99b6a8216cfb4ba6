//! The Grundy values of a table: in memory, or in a memory-mapped file when they do not fit. The
//! engine's value sets ([`crate::grundy::windows_sets_memory`]) stay in memory either way; the
//! values themselves are written once, block by block, and read back in table order, so the
//! operating system pages them to and from the disk. The file is removed as soon as it is mapped:
//! nothing is left behind, whatever ends the run.

use std::fs::OpenOptions;
use std::ops::{Deref, DerefMut};
use std::path::Path;

/// Two bytes a value.
const BYTES: usize = 2;

/// Grundy values, one per position of a table, in table order.
pub struct Values {
    inner: Inner,
}

enum Inner {
    Memory(Vec<u16>),
    File { map: memmap2::MmapMut, len: usize },
}

impl Values {
    /// `len` zero values in memory.
    pub fn in_memory(len: usize) -> Values {
        Values {
            inner: Inner::Memory(vec![0; len]),
        }
    }

    /// `len` zero values in a file of `dir`, mapped into memory.
    pub fn on_disk(dir: &Path, len: usize) -> std::io::Result<Values> {
        let bytes = len
            .checked_mul(BYTES)
            .ok_or_else(|| std::io::Error::other("too many values"))?;
        let path = dir.join(format!(
            "nimlab-grundy-{}-{}.values",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        let mapped = (|| {
            file.set_len(bytes as u64)?;
            reserve(&file, bytes as u64)?;
            // SAFETY: the file was just created by this process and is removed from the directory
            // below, so no other process maps or changes it while the map lives.
            unsafe { memmap2::MmapMut::map_mut(&file) }
        })();
        let _ = std::fs::remove_file(&path);
        let map = mapped?;
        Ok(Values {
            inner: Inner::File { map, len },
        })
    }

    /// The values as a vector (moved when in memory, copied from a file).
    pub fn into_vec(self) -> Vec<u16> {
        match self.inner {
            Inner::Memory(v) => v,
            Inner::File { .. } => self.to_vec(),
        }
    }

    /// True when the values live in a mapped file.
    pub fn on_file(&self) -> bool {
        matches!(self.inner, Inner::File { .. })
    }
}

/// Reserves the file's blocks on the disk, so that writing through the map cannot fail for want of
/// space (which would end the process): a full disk is an error here instead.
#[cfg(unix)]
fn reserve(file: &std::fs::File, bytes: u64) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let len = libc::off_t::try_from(bytes).map_err(|_| std::io::Error::other("file too large"))?;
    // SAFETY: the descriptor is the open file's; posix_fallocate only reserves its blocks.
    match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) } {
        0 => Ok(()),
        e => Err(std::io::Error::from_raw_os_error(e)),
    }
}

#[cfg(not(unix))]
fn reserve(_file: &std::fs::File, _bytes: u64) -> std::io::Result<()> {
    Ok(())
}

impl Deref for Values {
    type Target = [u16];
    fn deref(&self) -> &[u16] {
        match &self.inner {
            Inner::Memory(v) => v,
            Inner::File { map, len } => {
                // SAFETY: the map is page-aligned (so aligned for u16) and holds exactly `len` values
                // of two bytes; every bit pattern is a valid u16.
                unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<u16>(), *len) }
            }
        }
    }
}

impl DerefMut for Values {
    fn deref_mut(&mut self) -> &mut [u16] {
        match &mut self.inner {
            Inner::Memory(v) => v,
            Inner::File { map, len } => {
                // SAFETY: as for `deref`, and the map is borrowed mutably for the slice's life.
                unsafe { std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<u16>(), *len) }
            }
        }
    }
}

impl From<Vec<u16>> for Values {
    fn from(v: Vec<u16>) -> Values {
        Values {
            inner: Inner::Memory(v),
        }
    }
}

impl Clone for Values {
    /// A copy in memory.
    fn clone(&self) -> Values {
        Values::from(self.to_vec())
    }
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        **self == **other
    }
}

impl Eq for Values {}

impl std::fmt::Debug for Values {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Values")
            .field("len", &self.len())
            .field("on_file", &self.on_file())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_file_holds_the_values_and_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("nimlab-values-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut v = Values::on_disk(&dir, 100_000).unwrap();
        assert!(v.on_file());
        for (i, x) in v.iter_mut().enumerate() {
            *x = (i * 7 % 65_536) as u16;
        }
        let want: Vec<u16> = (0..100_000).map(|i| (i * 7 % 65_536) as u16).collect();
        assert_eq!(&*v, &want[..]);
        assert_eq!(v, Values::from(want));
        // The file was removed from the directory as soon as it was mapped.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        drop(v);
        std::fs::remove_dir(&dir).unwrap();
    }
}
