//! hogs: find what eats your disk.
//!
//! `argv → config (Cli → Config, its Mode decided once) → main matches the Mode → a run`.
//! A printing run ([`app`]) scans ([`walk`], parallel, relative-fd stats; or [`import`]s an
//! export) into a [`tree`] (compact arena), settles it ([`settle`]: filters, extents, totals),
//! then prints a view of it ([`render`]), writes it
//! for other tools ([`export`]) or compares it with an earlier scan ([`diff`]). The
//! interactive view ([`tui`]) walks in the background and redraws as it goes. The walker
//! knows nothing about views, and views never touch the filesystem.

pub mod app;
pub mod config;
pub mod diff;
pub mod error;
pub mod export;
pub mod formats;
pub mod import;
pub mod owners;
pub mod progress;
pub mod render;
pub mod settle;
pub mod sys;
pub mod tree;
pub mod tui;
pub mod units;
pub mod vocab;
pub mod walk;
