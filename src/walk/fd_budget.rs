//! How many parent directories may stay open for their subdirectories at once: each costs
//! one descriptor until the last of its subdirectories has opened itself.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::sys;

/// The descriptors parent directories hold, and how many they may.
#[derive(Default)]
pub(super) struct FdBudget {
    open_parents: Arc<AtomicUsize>,
    /// Asked of the system (`sys::parent_fd_budget`) when first needed.
    budget: OnceLock<usize>,
}

/// One unit of the fd budget, given back when the parent's fd closes.
pub(super) struct FdPermit {
    open_parents: Arc<AtomicUsize>,
}

impl Drop for FdPermit {
    fn drop(&mut self) {
        self.open_parents.fetch_sub(1, Ordering::Relaxed);
    }
}

impl FdBudget {
    /// A permit to keep one more parent directory open, if the budget has room.
    pub(super) fn permit(&self) -> Option<FdPermit> {
        let budget = *self.budget.get_or_init(sys::parent_fd_budget);
        if self.open_parents.fetch_add(1, Ordering::Relaxed) < budget {
            Some(FdPermit {
                open_parents: Arc::clone(&self.open_parents),
            })
        } else {
            self.open_parents.fetch_sub(1, Ordering::Relaxed);
            None
        }
    }
}
