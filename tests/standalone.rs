//! A fresh clone passes its tests: nothing built or tested names the folder beside the
//! repository (`.ci/run` checks the same before it builds).

use std::path::{Path, PathBuf};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn no_source_test_bench_example_or_build_script_names_the_folder_beside_the_repository() {
    // Spelled in two halves so that this file does not name it itself.
    let beside = concat!("..", "/shared");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("build.rs")];
    for dir in ["src", "tests", "benches", "examples"] {
        files_under(&root.join(dir), &mut files);
    }
    let naming: Vec<String> = files
        .iter()
        .filter(|f| std::fs::read(f).is_ok_and(|b| String::from_utf8_lossy(&b).contains(beside)))
        .map(|f| f.display().to_string())
        .collect();
    assert!(files.len() > 20, "the files were found: {}", files.len());
    assert!(naming.is_empty(), "these name {beside}: {naming:?}");
}
