use std::process::ExitCode;

use hogs::config::Config;
use hogs::config_file::{parse_args, ArgsError};

fn main() -> ExitCode {
    let cli = match parse_args(std::env::args_os().collect()) {
        Ok(cli) => cli,
        // usage errors, --help and --version: clap prints them and exits (2 for errors)
        Err(ArgsError::Usage(e)) => e.exit(),
        Err(ArgsError::Config(e)) => {
            eprintln!("hogs: {e}");
            return ExitCode::from(1);
        }
    };
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
