//! The only place that talks to the kernel: open, getdents64 and stat on directory fds.
//!
//! Everything below a root goes through the parent directory's fd and the bare entry name, so
//! the kernel never resolves a long path (that costs O(depth) per call and fails past PATH_MAX).

use std::cell::RefCell;
use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, RawDir, ResolveFlags, Stat, CWD};
pub use rustix::io::Errno;

use crate::tree::{EntryKind, StatExtra};

/// What the walk keeps from a stat.
#[derive(Copy, Clone, Debug)]
pub struct Meta {
    pub dev: u64,
    pub ino: u64,
    pub nlink: u64,
    pub size: u64,
    pub blocks: u64,
    pub mtime: i64,
    pub kind: EntryKind,
    pub uid: u32,
    pub gid: u32,
    pub mode: u32,
}

/// Access and change times (seconds since the epoch). Not part of [`Meta`], which is held
/// for every entry of a directory while it is read: only the walks that keep
/// [`StatExtra`] ask for them (`*_times` functions).
#[derive(Copy, Clone, Debug, Default)]
pub struct Times {
    pub atime: i64,
    pub ctime: i64,
}

impl Times {
    #[allow(clippy::unnecessary_cast)]
    fn from_stat(st: &Stat) -> Times {
        Times {
            atime: st.st_atime as i64,
            ctime: st.st_ctime as i64,
        }
    }
}

impl Meta {
    // `struct stat` field widths differ between targets (nlink is u32 on aarch64),
    // so the casts are only no-ops on some of them.
    #[allow(clippy::unnecessary_cast)]
    fn from_stat(st: &Stat) -> Meta {
        Meta {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            nlink: st.st_nlink as u64,
            size: st.st_size.max(0) as u64,
            blocks: st.st_blocks as u64,
            mtime: st.st_mtime as i64,
            kind: kind_of(FileType::from_raw_mode(st.st_mode as _)),
            uid: st.st_uid as u32,
            gid: st.st_gid as u32,
            mode: st.st_mode as u32,
        }
    }

    pub fn extra(&self, times: Times) -> StatExtra {
        StatExtra {
            uid: self.uid,
            gid: self.gid,
            mode: self.mode,
            atime: times.atime,
            ctime: times.ctime,
        }
    }

    pub fn disk_bytes(&self) -> u64 {
        self.blocks.saturating_mul(512)
    }
}

/// The entry kind a `d_type` names; `None` for `DT_UNKNOWN` (the caller must stat).
pub fn kind_of_dirent(t: FileType) -> Option<EntryKind> {
    (t != FileType::Unknown).then(|| kind_of(t))
}

fn kind_of(t: FileType) -> EntryKind {
    match t {
        FileType::Directory => EntryKind::Dir,
        FileType::RegularFile => EntryKind::File,
        FileType::Symlink => EntryKind::Symlink,
        _ => EntryKind::Other,
    }
}

fn at_flags(follow: bool) -> AtFlags {
    if follow {
        AtFlags::empty()
    } else {
        AtFlags::SYMLINK_NOFOLLOW
    }
}

fn dir_flags(follow: bool) -> OFlags {
    let f = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
    if follow {
        f
    } else {
        f | OFlags::NOFOLLOW
    }
}

/// `fstatat(dir, name)`.
pub fn stat_at(dir: BorrowedFd<'_>, name: &CStr, follow: bool) -> Result<Meta, Errno> {
    rustix::fs::statat(dir, name, at_flags(follow)).map(|st| Meta::from_stat(&st))
}

/// Stat of a path as typed (relative to the working directory).
pub fn stat_path(path: &[u8], follow: bool) -> Result<Meta, Errno> {
    rustix::fs::statat(CWD, path, at_flags(follow)).map(|st| Meta::from_stat(&st))
}

/// [`stat_at`] with the access and change times.
pub fn stat_at_times(
    dir: BorrowedFd<'_>,
    name: &CStr,
    follow: bool,
) -> Result<(Meta, Times), Errno> {
    rustix::fs::statat(dir, name, at_flags(follow))
        .map(|st| (Meta::from_stat(&st), Times::from_stat(&st)))
}

/// [`stat_path`] with the access and change times.
pub fn stat_path_times(path: &[u8], follow: bool) -> Result<(Meta, Times), Errno> {
    rustix::fs::statat(CWD, path, at_flags(follow))
        .map(|st| (Meta::from_stat(&st), Times::from_stat(&st)))
}

/// [`fstat`] with the access and change times.
pub fn fstat_times(fd: BorrowedFd<'_>) -> Result<(Meta, Times), Errno> {
    rustix::fs::fstat(fd).map(|st| (Meta::from_stat(&st), Times::from_stat(&st)))
}

pub fn fstat(fd: BorrowedFd<'_>) -> Result<Meta, Errno> {
    rustix::fs::fstat(fd).map(|st| Meta::from_stat(&st))
}

/// Whether names in the open directory `dir` can be looked up (search permission). `perm`
/// are its permission bits if known: with every x bit set the answer is yes without a
/// syscall, so only unusual directories (0700, 0644…) pay one `faccessat`.
pub fn may_search(dir: BorrowedFd<'_>, perm: Option<u32>) -> bool {
    if perm.is_some_and(|p| p & 0o111 == 0o111) {
        return true;
    }
    rustix::fs::accessat(dir, c".", rustix::fs::Access::EXEC_OK, AtFlags::EACCESS).is_ok()
}

/// Opens a directory below `dir` for reading, never following a symlink unless asked.
pub fn open_dir_at(dir: BorrowedFd<'_>, name: &CStr, follow: bool) -> Result<OwnedFd, Errno> {
    retry_when_out_of_fds(|| rustix::fs::openat(dir, name, dir_flags(follow), Mode::empty()))
}

/// The kernel refused openat2 (before Linux 5.6, or a seccomp filter that does not know it):
/// every directory is opened with openat and stat'ed instead.
static NO_OPENAT2: AtomicBool = AtomicBool::new(false);

/// Opens a directory below `dir` (never following a symlink) only if it is on the same mount
/// as `dir`: openat2 with RESOLVE_NO_XDEV, which fails with EXDEV on a mount point (a bind
/// mount included). `Ok(None)` there, or where openat2 is refused: the caller opens it as
/// usual and stats it, to learn its device. (-f takes a directory's device from its parent
/// and its inode from the parent's listing, so that it stats nothing but mount points.)
pub fn open_dir_on_same_mount(dir: BorrowedFd<'_>, name: &CStr) -> Result<Option<OwnedFd>, Errno> {
    if NO_OPENAT2.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let opened = retry_when_out_of_fds(|| {
        rustix::fs::openat2(
            dir,
            name,
            dir_flags(false),
            Mode::empty(),
            ResolveFlags::NO_XDEV,
        )
    });
    match opened {
        Ok(fd) => Ok(Some(fd)),
        Err(Errno::XDEV) => Ok(None),
        Err(Errno::NOSYS | Errno::PERM | Errno::INVAL | Errno::TOOBIG) => {
            NO_OPENAT2.store(true, Ordering::Relaxed);
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Whether this process may search every directory whatever its permission bits
/// (CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE, as root has): then a directory that was opened
/// can be listed and its names looked up, with no `faccessat` to ask.
pub fn searches_everywhere() -> bool {
    use rustix::thread::CapabilitySet;
    rustix::thread::capabilities(None).is_ok_and(|c| {
        c.effective
            .intersects(CapabilitySet::DAC_READ_SEARCH | CapabilitySet::DAC_OVERRIDE)
    })
}

/// Another thread may be about to close an fd: wait a little rather than lose a directory.
fn retry_when_out_of_fds<T>(mut f: impl FnMut() -> Result<T, Errno>) -> Result<T, Errno> {
    let mut tries = 0;
    loop {
        match f() {
            Err(Errno::MFILE | Errno::NFILE) if tries < 200 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            r => return r,
        }
    }
}

/// Blocks (512 bytes) this process has read from a device so far: how a walk tells metadata
/// read from disk from metadata in the page cache without trusting timing (a loaded machine
/// makes cached reads slow; a disk read is counted even when it is quick). 0 where the
/// kernel keeps no I/O accounting, and on filesystems with no block device (NFS, FUSE).
#[allow(unsafe_code)] // rustix has no getrusage; the libc call is the whole of it
pub fn blocks_read() -> u64 {
    let mut usage = MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a whole `struct rusage` into the pointer it is given.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } != 0 {
        return 0;
    }
    // SAFETY: zero-initialised and, on success, filled by the kernel.
    let usage = unsafe { usage.assume_init() };
    usage.ru_inblock.max(0) as u64
}

/// Whether `ulimit -v` (RLIMIT_AS) bounds the process's address space. The walk then takes
/// no room ahead for its arrays: reserved but untouched, it costs no memory, but it counts
/// against that limit, and a reservation that fits leaves too little for what is really
/// allocated later (`hogs -d 0` on 21k entries under `ulimit -v 61440` died of an
/// allocation failure).
pub fn address_space_limited() -> bool {
    rustix::process::getrlimit(rustix::process::Resource::As)
        .current
        .is_some()
}

/// Under `ulimit -v`, one malloc arena for all threads. glibc gives each new thread an arena
/// of 64 MiB of address space: under a limit that fits one, the rest of the walk was left
/// too little (`big`, 507k entries, -f, -T 2 and -T 4 under 72 to 96 MiB, 20 runs each:
/// 47 of 240 died of an allocation failure, 1 with one arena, -f at 72 MiB, where the tree
/// itself hardly fits).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)] // mallopt takes two integers; an unknown parameter is refused, not UB
pub fn one_malloc_arena() {
    // SAFETY: mallopt only changes malloc's tuning; called before the pool's threads start
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn one_malloc_arena() {}

/// How many parent directories the walk may hold open: half of what `ulimit -n` leaves after
/// a small reserve, so the worker threads (a directory being read each, and a parent reopened
/// by path) and the process's own files always have room.
pub fn parent_fd_budget() -> usize {
    let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(u64::MAX);
    (soft.saturating_sub(16) / 2).min(1 << 20) as usize
}

/// Opens a directory by a path of any length: a path longer than the kernel takes at once is
/// opened piece by piece, each piece relative to the directory the previous one opened.
pub fn open_dir_long_path(path: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
    const PIECE: usize = 3072;
    if path.len() < PIECE {
        return retry_when_out_of_fds(|| open_dir_path(path, follow));
    }
    let mut fd: Option<OwnedFd> = None;
    let mut rest = path;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PIECE);
        if cut < rest.len() {
            // cut after a '/', so every piece is whole names
            cut = match rest[..cut].iter().rposition(|&b| b == b'/') {
                Some(i) if i > 0 => i + 1,
                _ => return Err(Errno::NAMETOOLONG),
            };
        }
        let piece = std::ffi::CString::new(&rest[..cut]).map_err(|_| Errno::INVAL)?;
        let next = match &fd {
            None => retry_when_out_of_fds(|| {
                rustix::fs::openat(CWD, piece.as_c_str(), dir_flags(follow), Mode::empty())
            })?,
            Some(dir) => open_dir_at(dir.as_fd(), piece.as_c_str(), follow)?,
        };
        fd = Some(next);
        rest = &rest[cut..];
    }
    fd.ok_or(Errno::NOENT)
}

/// Opens a root directory by the path as typed.
pub fn open_dir_path(path: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(CWD, path, dir_flags(follow), Mode::empty())
}

const DIR_BUF: usize = 128 * 1024;

/// Bytes of the first read of a listing that may be split (see [`Span::one_read`]).
const FIRST_READ: usize = 16 * 1024;

thread_local! {
    // one getdents64 buffer per worker, reused for every directory it reads
    static DIR_BUFFER: RefCell<Vec<MaybeUninit<u8>>> = const { RefCell::new(Vec::new()) };
}

/// Calls `f(name, d_type, d_ino)` for every entry but `.` and `..`.
pub fn read_entries(dir: &OwnedFd, f: impl FnMut(&CStr, FileType, u64)) -> Result<(), Errno> {
    read_entries_until(dir, false, f)
}

/// Where ext4 puts a hashed directory's read position once every entry has been returned:
/// the last entry of that read says so (its `d_off`), and no entry's own position can be it
/// (ext4 moves a hash that would collide with it).
const EXT4_HTREE_EOF: u64 = 0x7fff_ffff_ffff_ffff;

/// Whether a directory is on ext4 (or ext2/3, the same driver), whose listing can end without
/// the empty read that otherwise tells the end (see [`read_entries_until`]).
pub fn marks_listing_end(dir: BorrowedFd<'_>) -> bool {
    const EXT4_SUPER_MAGIC: u64 = 0xEF53;
    #[allow(clippy::unnecessary_cast)]
    rustix::fs::fstatfs(dir).is_ok_and(|s| s.f_type as u64 == EXT4_SUPER_MAGIC)
}

/// [`read_entries`]; with `ext4`, a read whose last entry's next position is ext4's end of
/// a hashed directory is taken as the last (one getdents64 a directory instead of two: the
/// floor's second, empty call). Only that marker ends the listing early: a read cut short by
/// a full buffer or a signal (a stop and continue) leaves a hash there, and is followed by
/// more reads as usual.
pub fn read_entries_until(
    dir: &OwnedFd,
    ext4: bool,
    f: impl FnMut(&CStr, FileType, u64),
) -> Result<(), Errno> {
    read_span(dir, ext4, Span::WHOLE, f).map(|_| ())
}

/// The part of a listing one reader takes (see [`read_span`]).
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// The position the directory's fd is at: 0, or where an earlier span stopped.
    pub from: u64,
    /// Entries at this position or past it are left to another reader.
    pub end: u64,
    /// Stop once the entries of one getdents64 are taken: the caller decides, from how
    /// far that read got, whether to split the rest (see `Walker::split_plan`).
    pub one_read: bool,
}

impl Span {
    pub const WHOLE: Span = Span {
        from: 0,
        end: u64::MAX,
        one_read: false,
    };
}

/// Where a [`read_span`] stopped.
#[derive(Clone, Copy, Debug)]
pub struct Stopped {
    /// The position of the next entry (the last entry's `d_off`).
    pub next: u64,
    /// A `one_read` span stopped with entries left to read.
    pub more: bool,
    /// Entries read (`.` and `..` included).
    pub taken: usize,
}

/// Position of ext4's end of a hashed directory, for splitting its listing.
pub const HASH_END: u64 = EXT4_HTREE_EOF;

/// [`read_entries_until`] for a span of the listing. In a hashed ext4 directory an entry's
/// position is its name's hash (`d_off` is the next entry's), and a position that is sought
/// goes on from the first entry whose hash is there or past it, so that readers of disjoint
/// spans read disjoint entries, each on its own fd, at the same time. A reader knows the
/// position of every entry it meets but its first (the one before said where the next is):
/// it takes its first entry and then those placed before `end`. A reader whose span holds
/// no entry at all takes one of the next span's: see `drop_empty_spans`.
pub fn read_span(
    dir: &OwnedFd,
    ext4: bool,
    span: Span,
    mut f: impl FnMut(&CStr, FileType, u64),
) -> Result<Stopped, Errno> {
    DIR_BUFFER.with(|cell| {
        let mut buf = cell.borrow_mut();
        if buf.len() < DIR_BUF {
            buf.resize(DIR_BUF, MaybeUninit::uninit());
        }
        // a first read that may be split after is short: a directory of a few thousand
        // names is then split too
        let len = if span.one_read { FIRST_READ } else { DIR_BUF };
        let mut raw = RawDir::new(dir.as_fd(), &mut buf[..len]);
        let mut next_position = span.from;
        let mut taken = 0;
        loop {
            if raw.is_buffer_empty() {
                if ext4 && next_position == EXT4_HTREE_EOF {
                    break;
                }
                if span.one_read && taken > 0 {
                    return Ok(Stopped {
                        next: next_position,
                        more: true,
                        taken,
                    });
                }
            }
            let Some(entry) = raw.next() else { break };
            let entry = entry?;
            if taken > 0 && next_position >= span.end {
                break; // the next span's
            }
            taken += 1;
            next_position = entry.next_entry_cookie();
            let name = entry.file_name();
            let b = name.to_bytes();
            if b == b"." || b == b".." {
                continue;
            }
            f(name, entry.file_type(), entry.ino());
        }
        Ok(Stopped {
            next: next_position,
            more: false,
            taken,
        })
    })
}

/// Whether a directory's listing is ordered by hash (ext4's `FS_INDEX_FL`, `lsattr`'s `I`):
/// only then do positions split it (a linear ext4 directory's are byte offsets).
pub fn is_hash_indexed(dir: BorrowedFd<'_>) -> bool {
    const FS_INDEX_FL: u32 = 0x1000;
    rustix::fs::ioctl_getflags(dir).is_ok_and(|f| f.bits() & FS_INDEX_FL != 0)
}

/// The directory opened again (its own read position and listing state, as a second reader
/// needs), at position `pos`.
pub fn reopen_dir_at(dir: BorrowedFd<'_>, pos: u64) -> Result<OwnedFd, Errno> {
    let fd = rustix::fs::openat(dir, c".", dir_flags(false), Mode::empty())?;
    rustix::fs::seek(&fd, rustix::fs::SeekFrom::Start(pos))?;
    Ok(fd)
}

/// The text of an errno, without std's " (os error N)" suffix: `Permission denied`.
pub fn describe(errno: i32) -> String {
    let s = std::io::Error::from_raw_os_error(errno).to_string();
    match s.rfind(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// The CPU a thread runs on, and the CPUs the process may use: a pool thread it starts is
/// sent off that CPU before it first runs. Linux places a new thread on its creator's CPU
/// while that one seems to have room, and the walking thread keeps it busy: with the walking
/// thread as one of the pool's two workers, the other waited for that CPU (0.5 ms, or the
/// whole walk of `links`) or shared it (a whole `balanced` walk at 1.02 CPUs, 20% slower).
/// Moved by the thread itself once it ran, it had often waited already.
/// The CPU this thread runs on. glibc's, not rustix's: rustix finds the vDSO through the
/// auxiliary vector and checks its ELF header, which valgrind leaves unmapped (rustix issue
/// 1559): every walk that started a thread died of SIGSEGV under callgrind.
#[allow(unsafe_code)] // a libc call without arguments; -1 (no CPU known) becomes usize::MAX
fn current_cpu() -> usize {
    let cpu = unsafe { libc::sched_getcpu() };
    usize::try_from(cpu).unwrap_or(usize::MAX)
}

/// The CPUs a walk may keep busy. std's `available_parallelism` also reads the cgroup's CPU
/// quota (/proc/self/cgroup, then the quota files: 50 us, 1.5% of a 3 ms walk); a quota
/// only ever lowers the count, and on two CPUs it could take one thread away, which costs
/// a CPU-bound walk less than asking. So it is asked only where more are allowed (a
/// container's quota of 2 CPUs on a 64-core host must not start 64 threads).
pub fn usable_cpus() -> usize {
    match rustix::thread::sched_getaffinity(None) {
        Ok(set) if set.count() <= 2 => set.count().max(1) as usize,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

#[derive(Clone, Copy)]
pub struct CpuHome {
    cpu: usize,
    allowed: Option<rustix::thread::CpuSet>,
}

impl CpuHome {
    pub fn here() -> CpuHome {
        CpuHome {
            cpu: current_cpu(),
            allowed: rustix::thread::sched_getaffinity(None).ok(),
        }
    }

    /// Whether a thread started from here is to be sent elsewhere.
    fn has_elsewhere(&self) -> Option<&rustix::thread::CpuSet> {
        self.allowed.as_ref().filter(|a| {
            self.cpu < rustix::thread::CpuSet::MAX_CPU && a.count() >= 2 && a.is_set(self.cpu)
        })
    }

    /// Runs `run` on a new thread that starts on another CPU than this one, then may go
    /// anywhere. The thread lifts its restriction only once it has been set: lifted first,
    /// it would have been set after, and kept for good.
    pub fn spawn_elsewhere(&self, run: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
        let sent = std::sync::Arc::new(AtomicBool::new(false));
        let seen = std::sync::Arc::clone(&sent);
        let home = *self;
        let thread = std::thread::Builder::new().spawn(move || {
            // (mostly already true: until it is sent away, the thread waits for its CPU)
            while !seen.load(Ordering::Acquire) {
                std::thread::yield_now();
            }
            home.settle();
            run()
        })?;
        self.send_away(&thread);
        sent.store(true, Ordering::Release);
        Ok(())
    }

    /// Restricts a just-started thread to the other CPUs, so that the scheduler moves it
    /// at once (it has not run yet). It lets itself go anywhere again with [`CpuHome::settle`].
    #[allow(unsafe_code)] // rustix sets affinities by thread id, which a JoinHandle does not give
    fn send_away<T>(&self, thread: &std::thread::JoinHandle<T>) {
        use std::os::unix::thread::JoinHandleExt;
        let Some(allowed) = self.has_elsewhere() else {
            return;
        };
        // SAFETY: cpu_set_t is plain bits (all zeros is the empty set); CPU_SET writes within it
        let mut away: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        for cpu in (0..libc::CPU_SETSIZE as usize).filter(|&c| c != self.cpu) {
            if allowed.is_set(cpu) {
                // SAFETY: cpu < CPU_SETSIZE, the size of `away`
                unsafe { libc::CPU_SET(cpu, &mut away) };
            }
        }
        // SAFETY: the handle's pthread_t names a live thread (it is not joined or detached
        // before this returns); `away` is a valid cpu_set_t of the size given
        unsafe {
            libc::pthread_setaffinity_np(
                thread.as_pthread_t(),
                std::mem::size_of::<libc::cpu_set_t>(),
                &away,
            );
        }
    }

    /// On the thread [`CpuHome::send_away`] moved: it may run anywhere again (it stays where
    /// it is until the scheduler has a reason to move it).
    fn settle(&self) {
        if let Some(allowed) = self.has_elsewhere() {
            let _ = rustix::thread::sched_setaffinity(None, allowed);
        }
    }
}

/// Faults in the pages of `[addr, addr + len)` for writing, in one call (Linux 5.14 and
/// later; nothing otherwise). Their contents do not change: pages never touched read as
/// zeros before and after, and pages in use are left as they are.
#[allow(unsafe_code)] // madvise on an address range; no memory is read or written through it
pub fn prefault(addr: usize, len: usize) {
    if len == 0 {
        return;
    }
    let page = 4096;
    let start = addr & !(page - 1);
    let end = (addr + len).div_ceil(page) * page;
    if end > start {
        // SAFETY: MADV_POPULATE_WRITE only maps pages (as a write would, without writing);
        // a range that is not mapped, or not writable, makes it fail, which is ignored
        unsafe {
            libc::madvise(
                start as *mut libc::c_void,
                end - start,
                libc::MADV_POPULATE_WRITE,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{EntryKind, Node, TreeBuilder};

    /// Faulting in the tree's spare space must leave what is there as it was, and the space
    /// must start where the next node will go.
    #[test]
    fn prefault_keeps_the_tree_and_covers_what_comes_next() {
        let mut b = TreeBuilder::new().reserved_for_walk();
        let root = b.add_roots(vec![(b"r".to_vec(), Node::new(EntryKind::Dir, 0, 0, 0, 0))]);
        for i in 0..1000u64 {
            b.push_child(root, Node::new(EntryKind::File, i, i, 0, 0), b"name");
        }
        let first = b.close_children(root, 1000);
        let last = first + 999;
        let [(nodes_at, nodes_len), (names_at, names_len)] = b.spare_regions(5000, 40_000);
        let tree = b.tree();
        assert_eq!(
            nodes_at,
            std::ptr::from_ref(tree.node(last)) as usize + std::mem::size_of::<Node>(),
            "the node region starts right after the last node"
        );
        assert_eq!(nodes_len, 5000 * std::mem::size_of::<Node>());
        assert_eq!(
            names_at,
            tree.name(last).as_ptr() as usize + 4,
            "the name region starts right after the last name"
        );
        assert_eq!(names_len, 40_000);
        prefault(nodes_at - 100, nodes_len + 100); // starts inside the last nodes
        prefault(names_at - 10, names_len + 10);
        for (i, id) in (first..=last).enumerate() {
            assert_eq!(tree.node(id).disk, i as u64, "node {id} unchanged");
            assert_eq!(tree.name(id), b"name", "name of node {id} unchanged");
        }
    }
}
