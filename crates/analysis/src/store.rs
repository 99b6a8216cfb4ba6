//! The store of solved tables as the analysis layer uses it ([`StoreHandle`]): opened lazily, on the
//! first look-up that finds its file, and shared between threads.

use nimlab_tables::store::Store;
use std::path::PathBuf;
use std::sync::Mutex;

/// The store as the analysis layer uses it: opened lazily, shared between threads.
#[derive(Default)]
pub struct StoreHandle {
    path: Option<PathBuf>,
    store: Mutex<Option<Store>>,
}

impl StoreHandle {
    /// No store.
    pub fn none() -> StoreHandle {
        StoreHandle::default()
    }
    /// The store at `path`, used only when the file exists (a look-up never creates a store).
    pub fn at(path: Option<PathBuf>) -> StoreHandle {
        StoreHandle {
            path,
            store: Mutex::new(None),
        }
    }
    /// Runs `f` with the store, when there is one.
    pub fn with<T>(&self, f: impl FnOnce(&Store) -> Option<T>) -> Option<T> {
        let path = self.path.as_ref()?;
        let mut guard = self.store.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            if !path.exists() {
                return None;
            }
            *guard = Store::open(path).ok();
        }
        f(guard.as_ref()?)
    }
}
