use std::process::ExitCode;

use clap::Parser;
use hogs::cli::Cli;
use hogs::config::Config;

fn main() -> ExitCode {
    let cli = Cli::parse(); // usage errors: clap prints them and exits 2
    let config = match Config::from_cli(cli) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hogs: {e}");
            return ExitCode::from(1);
        }
    };
    let status = if config.interactive.is_some() {
        hogs::tui::run(&config)
    } else {
        hogs::run(&config)
    };
    ExitCode::from(status as u8)
}
