//! The tracker on the demo encounter, saving nothing: `cargo run --example ui_demo [-- --no-color]`.

use srtrack::save::NoSave;
use srtrack::ui::{App, demo, run};

fn main() -> color_eyre::Result<()> {
    color_eyre::install()?;
    let no_color = std::env::args().any(|a| a == "--no-color");
    let empty = std::env::args().any(|a| a == "--empty");
    let enc = if empty {
        demo::empty()
    } else {
        demo::encounter()
    };
    let app = App::new(enc, "Warehouse ambush".into(), Box::new(NoSave), None);
    run(
        app,
        no_color,
        &std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    )
}
