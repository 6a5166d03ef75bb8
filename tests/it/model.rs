//! The data model's own rules: row anchors, workload ids, URL segments and
//! the figures derived from a diffusion row.

use energyboard::model::{ModelFile, WorkloadDecl, WorkloadRef, row_anchor, url_segment};

fn fixture(path: &str) -> ModelFile {
    serde_json::from_str(&std::fs::read_to_string(format!("tests/fixtures/{path}")).unwrap())
        .unwrap()
}

#[test]
fn row_anchor_drops_slug_and_lowercases() {
    assert_eq!(
        row_anchor("qwen-3-32b", "qwen-3-32b/H100/2/256"),
        "h100-2-256"
    );
    assert_eq!(
        row_anchor("qwen-3-32b", "qwen-3-32b/H100/2/256/r2"),
        "h100-2-256-r2"
    );
    assert_eq!(row_anchor("a", "other/B200/1/8"), "other-b200-1-8");
}

#[test]
fn workload_id_is_the_text_in_trailing_parentheses() {
    let mut m = fixture("seeds/qwen-3-32b.json");
    assert_eq!(
        m.workload_ref(),
        Some(WorkloadRef {
            id: "lm-arena-chat".into(),
            name: "Text Conversation".into()
        })
    );
    std::sync::Arc::make_mut(&mut m.source).workload = "Problem Solving (GPQA) (gpqa)".into();
    assert_eq!(
        m.workload_ref(),
        Some(WorkloadRef {
            id: "gpqa".into(),
            name: "Problem Solving (GPQA)".into()
        })
    );
    std::sync::Arc::make_mut(&mut m.source).workload = "No id here".into();
    assert_eq!(m.workload_ref(), None);
    m.workload = Some(WorkloadDecl {
        id: "code".into(),
        name: "Code".into(),
        description: None,
    });
    assert_eq!(
        m.workload_ref(),
        Some(WorkloadRef {
            id: "code".into(),
            name: "Code".into()
        })
    );
}

#[test]
fn url_segment_collapses_separators() {
    assert_eq!(url_segment("H100 80GB HBM3"), "h100-80gb-hbm3");
    assert_eq!(url_segment("../B200"), "b200");
    assert_eq!(url_segment("<script>"), "script");
    assert_eq!(url_segment("Ünïcode--A100__é"), "n-code-a100");
}

#[test]
fn diffusion_derived_figures_follow_their_formulas() {
    let m = fixture("diffusion/text-to-video/wan-2-1-14b.json");
    let c = &m.best["B200"];
    assert_eq!(c.joules_per_item().unwrap(), 342_623.06);
    assert!((c.wh_per_item().unwrap() - 342_623.06 / 3600.0).abs() < 1e-9);
    assert!((c.items_per_kwh().unwrap() - 3.6e6 / 342_623.06).abs() < 1e-12);
    // 81 frames at 15 fps: 5.4 s of video.
    assert!((c.video_seconds().unwrap() - 5.4).abs() < 1e-12);
    assert!((c.joules_per_video_second().unwrap() - 342_623.06 / 5.4).abs() < 1e-6);
    assert_eq!(c.resolution(), "832×480, 81 frames at 15 fps");
    assert_eq!(c.parallelism(), "U1·R2");
    let m = fixture("diffusion/text-to-image/flux-1-dev.json");
    let c = &m.best["B200"];
    assert_eq!(c.joules_per_video_second(), None);
    assert_eq!(c.resolution(), "1024×1024");
    assert_eq!(c.parallelism(), "none");
}
