//! Test environment for the `hogs` integration tests (in the spirit of fd's `tests/testenv`).
//!
//! Every test gets its own [`TestEnv`]: a fresh temporary directory (mode 0755, so that an
//! unprivileged user can traverse it) in which it builds a tree, runs the real `hogs` binary with
//! that directory as current directory, and compares sizes with GNU du, the oracle for every size.

#![allow(dead_code)]

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// A temporary directory holding one test's tree.
pub struct TestEnv {
    dir: Option<tempfile::TempDir>,
    /// Run `rm -rf` on the root before the TempDir is dropped (trees too deep for a plain
    /// recursive removal).
    deep_cleanup: bool,
}

impl Default for TestEnv {
    fn default() -> Self {
        Self::new()
    }
}

impl TestEnv {
    /// A fresh, empty temporary directory with mode 0755.
    pub fn new() -> Self {
        Self::with_dir(
            tempfile::Builder::new()
                .prefix("hogs-cli-test-")
                .tempdir()
                .expect("create temporary directory"),
        )
    }

    /// Like [`TestEnv::new`], on a tmpfs when there is one (/dev/shm): for trees of a million
    /// entries, which take minutes to create and remove on a journalled disk and seconds there.
    pub fn new_in_memory() -> Self {
        let shm = Path::new("/dev/shm");
        match tempfile::Builder::new()
            .prefix("hogs-cli-test-")
            .tempdir_in(shm)
        {
            Ok(dir) => Self::with_dir(dir),
            Err(_) => Self::new(),
        }
    }

    /// Like [`TestEnv::new`], under cargo's target directory: on the disk that holds the
    /// project even where /tmp is a tmpfs (a tree whose metadata must leave the page cache).
    pub fn new_on_disk() -> Self {
        Self::with_dir(
            tempfile::Builder::new()
                .prefix("hogs-cli-test-")
                .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
                .expect("create temporary directory under the target directory"),
        )
    }

    fn with_dir(dir: tempfile::TempDir) -> Self {
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755))
            .expect("chmod 0755 the temporary directory");
        TestEnv {
            dir: Some(dir),
            deep_cleanup: false,
        }
    }

    /// Ask for `rm -rf` of the tree at drop time (for trees deeper than PATH_MAX).
    pub fn set_deep_cleanup(&mut self) {
        self.deep_cleanup = true;
    }

    /// The root of the temporary directory (the current directory of every run).
    pub fn root(&self) -> &Path {
        self.dir.as_ref().expect("temp dir present").path()
    }

    /// `root/rel`.
    pub fn path(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root().join(rel)
    }

    /// `mkdir -p root/rel`.
    pub fn mkdir(&self, rel: impl AsRef<Path>) -> &Self {
        let p = self.path(rel);
        fs::create_dir_all(&p).unwrap_or_else(|e| panic!("mkdir -p {}: {e}", p.display()));
        self
    }

    /// A regular file of `len` bytes of real (non-zero, non-repeating per block) data, so that
    /// its disk usage is nonzero when `len > 0`. Parent directories are created.
    pub fn file(&self, rel: impl AsRef<Path>, len: u64) -> &Self {
        let p = self.path(rel);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("mkdir -p {}: {e}", parent.display()));
        }
        let mut f = File::create(&p).unwrap_or_else(|e| panic!("create {}: {e}", p.display()));
        let mut chunk = vec![0u8; 64 * 1024];
        let mut written = 0u64;
        let mut seed = 0x9e37_79b9_u32 ^ (len as u32);
        while written < len {
            for b in chunk.iter_mut() {
                // xorshift: cheap, never all zeros
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                *b = (seed as u8) | 1;
            }
            let n = std::cmp::min(chunk.len() as u64, len - written) as usize;
            f.write_all(&chunk[..n])
                .unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
            written += n as u64;
        }
        f.sync_all()
            .unwrap_or_else(|e| panic!("fsync {}: {e}", p.display()));
        self
    }

    /// An empty file (no data blocks). Parent directories must exist.
    pub fn empty(&self, rel: impl AsRef<Path>) -> &Self {
        let p = self.path(rel);
        File::create(&p).unwrap_or_else(|e| panic!("create {}: {e}", p.display()));
        self
    }

    /// A sparse file: `File::set_len(len)` with no data written.
    pub fn sparse(&self, rel: impl AsRef<Path>, len: u64) -> &Self {
        let p = self.path(rel);
        let f = OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .open(&p)
            .unwrap_or_else(|e| panic!("create {}: {e}", p.display()));
        f.set_len(len)
            .unwrap_or_else(|e| panic!("set_len {}: {e}", p.display()));
        self
    }

    /// `ln -s target root/rel` (target is stored as given).
    pub fn symlink(&self, target: impl AsRef<Path>, rel: impl AsRef<Path>) -> &Self {
        let p = self.path(rel);
        std::os::unix::fs::symlink(target.as_ref(), &p)
            .unwrap_or_else(|e| panic!("symlink {}: {e}", p.display()));
        self
    }

    /// `ln root/existing root/rel`.
    pub fn hardlink(&self, existing: impl AsRef<Path>, rel: impl AsRef<Path>) -> &Self {
        let src = self.path(existing);
        let dst = self.path(rel);
        fs::hard_link(&src, &dst)
            .unwrap_or_else(|e| panic!("ln {} {}: {e}", src.display(), dst.display()));
        self
    }

    /// A FIFO (via mkfifo(1)).
    pub fn fifo(&self, rel: impl AsRef<Path>) -> &Self {
        let st = Command::new("mkfifo")
            .arg(rel.as_ref())
            .current_dir(self.root())
            .status()
            .expect("run mkfifo");
        assert!(st.success(), "mkfifo failed");
        self
    }

    /// chmod.
    pub fn chmod(&self, rel: impl AsRef<Path>, mode: u32) -> &Self {
        let p = self.path(rel);
        fs::set_permissions(&p, fs::Permissions::from_mode(mode))
            .unwrap_or_else(|e| panic!("chmod {}: {e}", p.display()));
        self
    }

    /// Run a bash script in the root directory; panics if it fails.
    pub fn bash(&self, script: &str) {
        let st = Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(self.root())
            .status()
            .expect("run bash");
        assert!(st.success(), "bash script failed: {script}");
    }

    /// A linear chain `rel/d/d/d/…` of `depth` directories named `d` below `rel` (which must
    /// exist). Works for depths far beyond PATH_MAX: it builds chunks of at most 500 levels at a
    /// short path and renames the chain built so far into the bottom of each new chunk.
    pub fn deep_chain(&self, rel: impl AsRef<Path>, depth: usize) {
        const CHUNK: usize = 500;
        let work = self.path("deep-chain-work");
        let mut acc: Option<PathBuf> = None; // a chain of some depth at a short path
        let mut built = 0usize;
        let mut n = 0usize;
        while built < depth {
            let k = std::cmp::min(CHUNK, depth - built);
            let top = work.join(format!("c{n}"));
            n += 1;
            let mut bottom = top.clone();
            for _ in 1..k {
                bottom.push("d");
            }
            fs::create_dir_all(&bottom)
                .unwrap_or_else(|e| panic!("mkdir -p {}: {e}", bottom.display()));
            if let Some(prev) = acc.take() {
                let dst = bottom.join("d");
                fs::rename(&prev, &dst)
                    .unwrap_or_else(|e| panic!("rename {} {}: {e}", prev.display(), dst.display()));
            }
            acc = Some(top);
            built += k;
        }
        let dst = self.path(rel).join("d");
        let acc = acc.expect("depth > 0");
        fs::rename(&acc, &dst)
            .unwrap_or_else(|e| panic!("rename {} {}: {e}", acc.display(), dst.display()));
        fs::remove_dir(&work).expect("remove the empty work dir");
    }

    /// The real binary as an `assert_cmd::Command`, run in the root directory.
    pub fn hogs(&self) -> assert_cmd::Command {
        let mut cmd = assert_cmd::Command::cargo_bin("hogs").expect("find the hogs binary");
        cmd.current_dir(self.root());
        cmd.env_remove("NO_COLOR");
        cmd.env_remove("CLICOLOR_FORCE");
        cmd.env_remove("COLUMNS");
        cmd.env_remove("LINES");
        // no config file but the one a test writes (see config_file.rs), hogs's or dust's
        cmd.env("XDG_CONFIG_HOME", self.root().join("no-such-config-dir"));
        cmd.env("HOME", self.root().join("no-such-home"));
        cmd
    }

    /// Run hogs with these arguments; returns the raw output (any exit status).
    pub fn run<I, S>(&self, args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.hogs().args(args).output().expect("run hogs")
    }

    /// Run GNU du as the same unprivileged user as [`TestEnv::run_unprivileged`], in the
    /// root directory, in the C locale (the oracle for what that user can count).
    pub fn du_unprivileged(&self, args: &[&str]) -> Output {
        unprivileged(Path::new("du"))
            .args(args)
            .current_dir(self.root())
            .env("LC_ALL", "C")
            .output()
            .expect("run du")
    }

    /// Run hogs as an unprivileged user (uid/gid 65534 when we are root: root reads
    /// everything), in the root directory; returns the raw output.
    pub fn run_unprivileged<I, S>(&self, args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        unprivileged(&hogs_bin())
            .args(args)
            .current_dir(self.root())
            .output()
            .expect("run hogs")
    }

    /// Run hogs, require exit 0 and an empty stderr, return stdout.
    pub fn stdout_ok<I, S>(&self, args: I) -> Vec<u8>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let out = self.run(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "hogs {args:?} exited with {:?}; stderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "hogs {args:?} wrote to stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// Run hogs with these arguments (add `-j` yourself or not: it is added here), require
    /// success and parse the JSON document.
    pub fn json<I, S>(&self, args: I) -> Value
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut all: Vec<OsString> = vec!["-j".into()];
        all.extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        let out = self.stdout_ok(&all);
        serde_json::from_slice(&out).unwrap_or_else(|e| {
            panic!(
                "hogs {all:?}: stdout is not one JSON document ({e}):\n{}",
                String::from_utf8_lossy(&out)
            )
        })
    }

    /// Size of the JSON root of `hogs -j ARGS`.
    pub fn total<I, S>(&self, args: I) -> u64
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        size(&self.json(args))
    }

    /// Run GNU du in the root directory with these arguments; returns stdout lines as
    /// (number, path bytes). Panics if du fails.
    pub fn du_lines<I, S>(&self, args: I) -> Vec<(u64, Vec<u8>)>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let out = Command::new("du")
            .args(&args)
            .current_dir(self.root())
            .env("LC_ALL", "C")
            .output()
            .expect("run du");
        assert!(
            out.status.success(),
            "du {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        parse_du(&out.stdout)
    }

    /// The grand total of `du -s -c FLAGS PATHS` (one number).
    pub fn du_total(&self, flags: &[&str], paths: &[&str]) -> u64 {
        let mut args: Vec<&str> = vec!["-s", "-c"];
        args.extend_from_slice(flags);
        args.push("--");
        args.extend_from_slice(paths);
        let lines = self.du_lines(&args);
        lines.last().expect("du printed a total").0
    }

    /// `du -sB1 PATHS` total (disk usage, bytes).
    pub fn du_disk(&self, paths: &[&str]) -> u64 {
        self.du_total(&["-B1"], paths)
    }

    /// `du -sb PATHS` total (apparent size, bytes).
    pub fn du_apparent(&self, paths: &[&str]) -> u64 {
        self.du_total(&["-b"], paths)
    }

    /// `du -s --inodes PATHS` total.
    pub fn du_inodes(&self, paths: &[&str]) -> u64 {
        self.du_total(&["--inodes"], paths)
    }

    /// Per-child values of `du -a --max-depth=1 FLAGS path`, keyed by the child's base name
    /// (lossy); the entry for `path` itself is keyed "".
    pub fn du_children(&self, flags: &[&str], path: &str) -> Vec<(String, u64)> {
        let mut args: Vec<&str> = vec!["-a", "--max-depth=1"];
        args.extend_from_slice(flags);
        args.push("--");
        args.push(path);
        self.du_lines(&args)
            .into_iter()
            .map(|(n, p)| {
                let p = String::from_utf8_lossy(&p).into_owned();
                let key = if p == path {
                    String::new()
                } else {
                    basename(&p).to_owned()
                };
                (key, n)
            })
            .collect()
    }
}

impl Drop for TestEnv {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let path = dir.path().to_owned();
            if self.deep_cleanup {
                // GNU rm handles trees deeper than PATH_MAX; ignore failures.
                let _ = Command::new("rm")
                    .arg("-rf")
                    .arg("--")
                    .arg(&path)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
            } else {
                // Undo chmod 000 etc. so that the removal can succeed.
                let _ = Command::new("chmod")
                    .arg("-R")
                    .arg("u+rwx")
                    .arg("--")
                    .arg(&path)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
            }
            if let Err(e) = dir.close() {
                eprintln!("warning: could not remove {}: {e}", path.display());
            }
        }
    }
}

/// Parse du output: `NUMBER\tPATH` per line.
pub fn parse_du(out: &[u8]) -> Vec<(u64, Vec<u8>)> {
    out.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let tab = l
                .iter()
                .position(|&b| b == b'\t')
                .unwrap_or_else(|| panic!("bad du line {:?}", String::from_utf8_lossy(l)));
            let n = std::str::from_utf8(&l[..tab])
                .ok()
                .and_then(|s| s.parse::<u64>().ok())
                .unwrap_or_else(|| panic!("bad du number {:?}", String::from_utf8_lossy(l)));
            (n, l[tab + 1..].to_vec())
        })
        .collect()
}

/// The part after the last '/' (the whole string if there is none).
pub fn basename(p: &str) -> &str {
    p.trim_end_matches('/').rsplit('/').next().unwrap_or(p)
}

/// The number a JSON node is sized by (`"value"`: disk bytes, apparent bytes with `-s`,
/// entries with `-f`, seconds with `-m`); `"size"` is dust's formatted string of it.
pub fn size(v: &Value) -> u64 {
    field_u64(v, "value")
}

/// A numeric field of a JSON node, which must be a JSON (unsigned integer) number.
pub fn field_u64(v: &Value, key: &str) -> u64 {
    v.get(key)
        .unwrap_or_else(|| panic!("JSON node has no {key:?}: {v}"))
        .as_u64()
        .unwrap_or_else(|| panic!("JSON {key:?} is not an unsigned integer number: {v}"))
}

/// `"name"` of a JSON node: the path as dust builds it (the argument, then `/` and each name
/// below it; `(total)` above several paths).
pub fn full_name(v: &Value) -> &str {
    v.get("name")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("JSON node has no string \"name\": {v}"))
}

/// The entry's own name: the last component of [`full_name`] (`/` stays `/`). `--diff -j`
/// names every node by its own name already.
pub fn name(v: &Value) -> &str {
    let full = full_name(v);
    if full.len() > 1 {
        basename(full)
    } else {
        full
    }
}

/// `"children"` of a JSON node.
pub fn children(v: &Value) -> &Vec<Value> {
    v.get("children")
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("JSON node has no array \"children\": {v}"))
}

/// Rewrites every node's `"name"` (and `"name_bytes"`) below the root to the entry's own
/// name, without the path above it: for comparing the trees of one scan reached by
/// different paths (a walk of `d`, an import of `/tmp/…/d`).
pub fn own_names(v: &mut Value) {
    for c in v
        .get_mut("children")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let own = name(c).to_owned();
        c["name"] = Value::String(own);
        if let Some(raw) = c.get_mut("name_bytes").and_then(Value::as_array_mut) {
            if let Some(slash) = raw
                .iter()
                .rposition(|b| b.as_u64() == Some(u64::from(b'/')))
            {
                raw.drain(..=slash);
            }
        }
        own_names(c);
    }
}

/// The child whose name (or its last path component) is `base`.
pub fn child<'a>(v: &'a Value, base: &str) -> &'a Value {
    children(v)
        .iter()
        .find(|c| name(c) == base || full_name(c) == base)
        .unwrap_or_else(|| {
            let names: Vec<&str> = children(v).iter().map(name).collect();
            panic!("no child {base:?} in {names:?}")
        })
}

/// Child sizes keyed by base name.
pub fn child_sizes(v: &Value) -> Vec<(String, u64)> {
    children(v)
        .iter()
        .map(|c| (basename(name(c)).to_owned(), size(c)))
        .collect()
}

/// Find a node named `n` (exact name or last component) anywhere in the JSON tree.
pub fn find_node<'a>(v: &'a Value, n: &str) -> Option<&'a Value> {
    if name(v) == n || full_name(v) == n {
        return Some(v);
    }
    children(v).iter().find_map(|c| find_node(c, n))
}

/// All names in the JSON tree.
pub fn all_names(v: &Value, out: &mut Vec<String>) {
    out.push(full_name(v).to_owned());
    for c in children(v) {
        all_names(c, out);
    }
}

/// Disk usage (st_blocks * 512) of one path, not following symlinks.
pub fn blocks_bytes(p: &Path) -> u64 {
    fs::symlink_metadata(p)
        .unwrap_or_else(|e| panic!("lstat {}: {e}", p.display()))
        .blocks()
        * 512
}

/// Every entry below `root` (not `root` itself), not following symlinks.
pub fn walk(root: &Path) -> Vec<(PathBuf, fs::Metadata)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(&dir).unwrap_or_else(|e| panic!("read_dir {}: {e}", dir.display())) {
            let e = e.expect("read_dir entry");
            let md = fs::symlink_metadata(e.path()).expect("lstat entry");
            if md.is_dir() {
                stack.push(e.path());
            }
            out.push((e.path(), md));
        }
    }
    out
}

/// Is the effective uid 0?
pub fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().expect("run id -u");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

/// Is setpriv(1) available?
pub fn have_setpriv() -> bool {
    Command::new("setpriv")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Whether a test of unreadable files can run: as root it needs setpriv(1) to drop to an
/// unprivileged user (root reads everything). Says so on stderr when it cannot.
pub fn can_run_unprivileged() -> bool {
    let can = !is_root() || have_setpriv();
    if !can {
        skip!("skipped: running as root and setpriv(1) is not available");
    }
    can
}

/// A command that runs `program` as uid/gid 65534 (via setpriv) when we are root, else directly.
pub fn unprivileged(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]);
        c.arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// Path of the hogs binary.
pub fn hogs_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("hogs")
}

/// Lines of a text output (split on '\n'; a final newline does not make an empty line).
pub fn lines(out: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
    if v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

/// An OsString from raw bytes.
pub fn os(bytes: &[u8]) -> OsString {
    OsString::from_vec(bytes.to_vec())
}

/// A Path from raw bytes.
pub fn path_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(bytes))
}

/// A mixed tree under `root` (relative): nested directories, an empty directory, files of
/// 0, 1, 4095, 4096, 4097, 100 000, 200 000 bytes and one of 3 MiB + 17.
pub fn mixed_tree(env: &TestEnv, root: &str) {
    env.mkdir(format!("{root}/a/b/c/emptydir"));
    env.mkdir(format!("{root}/z"));
    env.file(format!("{root}/empty0"), 0);
    env.file(format!("{root}/one"), 1);
    env.file(format!("{root}/mid"), 200_000);
    env.file(format!("{root}/a/f4095"), 4095);
    env.file(format!("{root}/a/f4096"), 4096);
    env.file(format!("{root}/a/f4097"), 4097);
    env.file(format!("{root}/a/b/big"), 3 * 1024 * 1024 + 17);
    env.file(format!("{root}/a/b/c/f100k"), 100_000);
    env.file(format!("{root}/z2/small"), 10);
}

/// A tmpfs mounted for a test; unmounted on drop, so a failing test leaves no mount behind.
pub struct Mount(PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Mounts a small tmpfs at `dir` (which must exist), or says why not and returns None.
pub fn mount_tmpfs(dir: &Path) -> Option<Mount> {
    let ok = is_root()
        && Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "hogs-test"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
    if !ok {
        skip!("skipped: cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)");
        return None;
    }
    Some(Mount(dir.to_owned()))
}

/// `hogs ARGS` with `HOGS_DEBUG_WALK`: the walk's own account of its threads
/// (`hogs: walk: N threads...`), and what hogs printed.
pub fn debug_walk(env: &TestEnv, args: &[&str]) -> (String, Vec<u8>) {
    let out = env
        .hogs()
        .env("HOGS_DEBUG_WALK", "1")
        .args(args)
        .output()
        .expect("run hogs");
    assert!(out.status.success(), "hogs failed: {out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report = stderr
        .lines()
        .find(|l| l.starts_with("hogs: walk: "))
        .unwrap_or_else(|| panic!("no walk report in {stderr:?}"))
        .to_owned();
    (report, out.stdout)
}

/// Whether `dir` is on ext4 (or ext2/3: the same driver).
pub fn is_ext4(dir: &Path) -> bool {
    let out = Command::new("stat")
        .args(["-f", "-c", "%T"])
        .arg(dir)
        .output();
    out.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "ext2/ext3")
}

/// The thread count of a [`debug_walk`] report.
pub fn walk_threads(report: &str) -> usize {
    report["hogs: walk: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no thread count in {report:?}"))
}

/// A size as the size column writes it in powers of 1024, dust's rule (`512B`, `4.0Ki`,
/// `12Mi`): below ten units one decimal, rounded to the nearest tenth (a `10.0` is written
/// `10`); from ten units up the whole number of units, rounded down (11.9 MiB is `11Mi`,
/// 1023.9 KiB is `1023Ki`); nothing above Pi. Written here from that rule, not through
/// hogs's formatter, so a test comparing a screen with it checks the formatter too.
pub fn iec(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["Ki", "Mi", "Gi", "Ti", "Pi"];
    if bytes < 1024 {
        return format!("{bytes}B");
    }
    let n = u128::from(bytes);
    let mut unit = 0;
    let mut div: u128 = 1024;
    while n / (div * 1024) >= 1 && unit + 1 < UNITS.len() {
        div *= 1024;
        unit += 1;
    }
    let whole = n / div;
    if whole >= 10 {
        return format!("{whole}{}", UNITS[unit]);
    }
    let tenths = (n * 10 + div / 2) / div;
    if tenths >= 100 {
        return format!("10{}", UNITS[unit]);
    }
    format!("{}.{}{}", tenths / 10, tenths % 10, UNITS[unit])
}

/// Whether the tests run under CI (`CI=true`, as `.ci/run` is started), where no test may
/// skip.
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| v == "true" || v == "1")
}
