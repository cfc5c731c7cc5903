//! A network filesystem: sshfs (FUSE, SFTP) over loopback to an sshd the test starts on a
//! free port, with a throwaway host key and an authorized key it makes in its temporary
//! directory, attribute caching off (every `stat` would ask the server again). hogs stats
//! with `AT_STATX_DONT_SYNC` there (the attributes the lookup brought back): its totals
//! must still be du's in every mode and with any thread count. No timing is asserted (see
//! docs/BENCHMARKS.md for that). Needs root, sshd, sshfs, unshare and strace.

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::adversarial::in_private_mounts;
use crate::util::*;

/// The sshd binary, where Debian puts it.
const SSHD: &str = "/usr/sbin/sshd";

/// An sshd in the foreground, stopped when the test ends however it ends.
struct Sshd(Child);

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn have(cmd: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {cmd}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Keys and a config in `env`, an sshd listening on 127.0.0.1 at a free port: the port.
fn start_sshd(env: &TestEnv) -> (Sshd, u16) {
    for key in ["hostkey", "userkey"] {
        let out = Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-f"])
            .arg(env.path(key))
            .output()
            .expect("run ssh-keygen");
        assert!(out.status.success(), "ssh-keygen: {out:?}");
    }
    fs::copy(env.path("userkey.pub"), env.path("authorized_keys")).expect("authorized_keys");
    // a port nobody listens on now (the small race with another process is harmless here)
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let dir = env.root().display();
    let config = format!(
        "Port {port}\nListenAddress 127.0.0.1\nHostKey {dir}/hostkey\n\
         AuthorizedKeysFile {dir}/authorized_keys\nPidFile none\n\
         PermitRootLogin prohibit-password\nPasswordAuthentication no\n\
         KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n\
         Subsystem sftp internal-sftp\n"
    );
    fs::write(env.path("sshd_config"), config).expect("sshd_config");
    // sshd's privilege separation directory
    fs::create_dir_all("/run/sshd").expect("/run/sshd");
    let child = Command::new(SSHD)
        .args(["-D", "-e", "-f"])
        .arg(env.path("sshd_config"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start sshd");
    let sshd = Sshd(child);
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "sshd did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (sshd, port)
}

/// Totals through sshfs equal du's through the same mount: disk (`du -sB1`), apparent
/// (`du -sb`) and entries (`du --inodes`), with one thread, two and eight.
#[test]
fn totals_through_sshfs_equal_du() {
    let missing: Vec<&str> = ["sshfs", "ssh-keygen", "unshare", "fusermount3", "strace"]
        .into_iter()
        .filter(|c| !have(c))
        .collect();
    if !is_root() || !missing.is_empty() || !std::path::Path::new(SSHD).exists() {
        skip!("skipped: needs root, {SSHD} and sshfs (missing: {missing:?}) for an sshfs mount");
        return;
    }
    let env = TestEnv::new();
    mixed_tree(&env, "src/t");
    env.sparse("src/t/a/holes", 5_000_000)
        .hardlink("src/t/mid", "src/t/z/mid-link");
    env.symlink("a/b", "src/t/to-b");
    let (_sshd, port) = start_sshd(&env);
    let hogs = hogs_bin();
    let hogs = hogs.display();
    let script = format!(
        r#"set -e
mkdir -p m
sshfs -o cache=no,attr_timeout=0,entry_timeout=0,BatchMode=yes,port={port} \
  -o IdentityFile="$PWD/userkey",StrictHostKeyChecking=no,UserKnownHostsFile=/dev/null \
  root@127.0.0.1:"$PWD/src" m
trap 'fusermount3 -u m 2>/dev/null || umount -l m' EXIT
test "$(stat -f -c %T m)" = fuseblk || stat -f -c %T m | grep -q fuse
for t in 1 2 8; do
  {hogs} -j -T $t m/t > disk-$t.json
  {hogs} -j -s -T $t m/t > apparent-$t.json
  {hogs} -j -f -T $t m/t > count-$t.json
done
strace -f -qq -e trace=statx,newfstatat -o trace.txt {hogs} -T 2 -d 0 m/t > /dev/null
du -sB1 m/t > du-disk.txt
du -sb m/t > du-apparent.txt
du -s --inodes m/t > du-count.txt
"#
    );
    if !in_private_mounts(&env, &script, "mount sshfs") {
        return;
    }
    let du = |file: &str| parse_du(&fs::read(env.path(file)).expect("du output"))[0].0;
    for mode in ["disk", "apparent", "count"] {
        let want = du(&format!("du-{mode}.txt"));
        for t in [1, 2, 8] {
            let file = format!("{mode}-{t}.json");
            let text = fs::read(env.path(&file)).expect("hogs output");
            let v: serde_json::Value = serde_json::from_slice(&text).expect("JSON");
            assert_eq!(size(&v), want, "{file}: hogs vs du through sshfs");
        }
    }
    let entries = du("du-count.txt");
    assert!(entries >= 16, "the mount showed the tree");
    if cfg!(feature = "portable-walk") {
        return; // the portable backend has no statx: every stat is an fstatat
    }
    // every entry below the root from what the client holds, none with a plain fstatat
    let trace = fs::read_to_string(env.path("trace.txt")).expect("strace output");
    let cached = trace.matches("AT_STATX_DONT_SYNC").count() as u64;
    let plain = trace.matches("newfstatat(").count();
    assert!(
        cached >= entries - 1,
        "{cached} of {entries} stats from the cache:\n{trace}"
    );
    assert!(plain <= 1, "only the root argument with fstatat:\n{trace}");
}
