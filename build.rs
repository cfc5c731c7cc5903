//! Links the unwinder statically (libgcc_eh.a) where the target is linux-gnu, so the binary
//! does not load libgcc_s.so at start. That library's constructor probes the CPU with
//! `cpuid`, which traps to the hypervisor on a VM: with its loading and symbol binding it
//! was a noticeable part of a short run's start. The unwinder is only reached by a panic's
//! backtrace.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let linux_gnu = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    if !linux_gnu {
        return;
    }
    // the C compiler that links the binary knows where its libgcc_eh.a is; if it does not
    // (it then prints the bare name back), the shared unwinder is used as before
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_owned());
    let Ok(out) = Command::new(cc)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
    else {
        return;
    };
    let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let path = Path::new(&path);
    if !out.status.success() || !path.is_absolute() || !path.is_file() {
        return;
    }
    if let Some(dir) = path.parent() {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static=gcc_eh");
    }
}
