//! Views of a finished tree. Pure: they read the tree and the config and write to a `Write`.

pub mod bars;
pub mod color;
pub mod diff;
pub mod diff_json;
pub mod escape;
pub mod html;
pub mod json;
pub mod labels;
mod options;
pub mod reader;

pub use options::ViewOptions;
