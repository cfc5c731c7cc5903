//! What a walk asks of the process and its threads: CPUs and affinity, limits, blocks read,
//! malloc's arenas, pages faulted in ahead.

use std::sync::atomic::{AtomicBool, Ordering};

/// Under `ulimit -v`, one malloc arena for all threads. glibc gives each new thread an arena
/// of 64 MiB of address space: under a limit that fits one, the rest of the walk was left
/// too little, and walks under a tight `ulimit -v` died of an allocation failure that one
/// arena avoids.
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

/// The CPU this thread runs on. glibc's, not rustix's: rustix finds the vDSO through the
/// auxiliary vector and checks its ELF header, which valgrind leaves unmapped (rustix issue
/// 1559): every walk that started a thread died of SIGSEGV under callgrind.
#[allow(unsafe_code)] // a libc call without arguments; -1 (no CPU known) becomes usize::MAX
fn current_cpu() -> usize {
    let cpu = unsafe { libc::sched_getcpu() };
    usize::try_from(cpu).unwrap_or(usize::MAX)
}

/// The CPUs a walk may keep busy. std's `available_parallelism` also reads the cgroup's CPU
/// quota (/proc/self/cgroup, then the quota files: several syscalls and reads, a visible
/// share of a small walk); a quota
/// only ever lowers the count, and on two CPUs it could take one thread away, which costs
/// a CPU-bound walk less than asking. So it is asked only where more are allowed (a
/// container's quota of 2 CPUs on a 64-core host must not start 64 threads).
pub fn usable_cpus() -> usize {
    match rustix::thread::sched_getaffinity(None) {
        Ok(set) if set.count() <= 2 => set.count().max(1) as usize,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// The CPU a thread runs on, and the CPUs the process may use: a pool thread it starts is
/// sent off that CPU before it first runs. Linux places a new thread on its creator's CPU
/// while that one seems to have room, and the walking thread keeps it busy: with the walking
/// thread as one of the pool's two workers, the other waited for that CPU or shared it for
/// the whole walk. Moved by the thread itself once it ran, it had often waited already.
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
