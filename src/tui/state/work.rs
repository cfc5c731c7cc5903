//! What runs or ran in the background, as the view knows it: the walk's progress, the delete
//! or rescan in progress, the entries deleted meanwhile, and what could not be read.

use crate::tree::NodeId;

/// The walk as the header shows it.
#[derive(Clone, Debug, Default)]
pub struct ScanStatus {
    pub running: bool,
    /// Stopped before the end (Ctrl-C): what is shown is incomplete.
    pub stopped: bool,
    pub entries: u64,
    pub bytes: u64,
    /// Entries that could not be read.
    pub errors: usize,
}

#[derive(Debug, Default)]
pub struct Work {
    scan: ScanStatus,
    /// A delete or rescan runs: no second one meanwhile. The text says what runs.
    busy: Option<String>,
    /// The message to show when the rescan in progress ends, instead of "rescanned".
    after_rescan: Option<String>,
    /// Entries deleted during a live walk: the finished walk's tree is shown without them.
    removed: Vec<NodeId>,
    /// What the walk and the rescans could not read, one line each (`e` lists them).
    errors: Vec<String>,
}

impl Work {
    pub fn scan(&self) -> &ScanStatus {
        &self.scan
    }

    pub fn busy(&self) -> Option<&str> {
        self.busy.as_deref()
    }

    pub fn removed(&self) -> &[NodeId] {
        &self.removed
    }

    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    pub fn set_busy(&mut self, what: String) {
        self.busy = Some(what);
    }

    /// The delete or rescan in progress ended.
    pub fn idle(&mut self) {
        self.busy = None;
    }

    /// What to say when the rescan just started ends.
    pub fn after_rescan(&mut self, message: Option<String>) {
        self.after_rescan = message;
    }

    pub fn take_after_rescan(&mut self) -> Option<String> {
        self.after_rescan.take()
    }

    /// Entries that left the disk: every later tree of the walk is shown without them.
    pub fn removed_now(&mut self, ids: &[NodeId]) {
        self.removed.extend_from_slice(ids);
    }

    /// A rescan's errors, added to the walk's.
    pub fn add_errors(&mut self, errors: Vec<String>) {
        self.scan.errors += errors.len();
        self.errors.extend(errors);
    }

    pub fn scan_started(&mut self) {
        self.scan.running = true;
    }

    pub fn scan_stopped(&mut self) {
        self.scan.stopped = true;
    }

    pub fn scan_progress(&mut self, entries: u64, bytes: u64) {
        self.scan.entries = entries;
        self.scan.bytes = bytes;
    }

    pub fn scan_ended(&mut self) {
        self.scan.running = false;
    }

    /// The finished walk's errors: `count` of them, one line each.
    pub fn scan_errors(&mut self, lines: Vec<String>, count: usize) {
        self.errors = lines;
        self.scan.errors = count;
    }

    /// The error list as the overlay shows it in `height` lines at most.
    pub fn error_lines(&self, height: u16) -> Vec<String> {
        let room = (height as usize).saturating_sub(4).max(1);
        let mut lines: Vec<String> = self.errors.iter().take(room).cloned().collect();
        if self.errors.len() > room {
            lines.pop();
            lines.push(format!(
                "… and {} more (all printed when the view closes)",
                self.errors.len() - lines.len()
            ));
        }
        lines
    }
}
