//! Embeds the web app (`web/`) in the binary: a table of every file's
//! path and bytes, so `tempo serve` needs nothing beside itself.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("web/ is readable")
        .map(|e| e.expect("a web/ entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
    println!("cargo:rerun-if-changed=web");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    let mut table = String::from("pub static ASSETS: &[(&str, &[u8])] = &[\n");
    for path in &paths {
        let name = path
            .strip_prefix(&root)
            .expect("inside web/")
            .to_str()
            .expect("asset names are UTF-8")
            .replace('\\', "/");
        if name.starts_with('.') || name.ends_with('~') {
            continue;
        }
        writeln!(
            table,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a string");
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("assets.rs"), table).expect("writing assets.rs");
}
