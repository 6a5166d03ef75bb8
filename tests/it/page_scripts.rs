//! The small inline scripts of the committed site (`site/`), run in node
//! against hostile addresses (issue 25): the 404 page's root finder probes
//! only its own origin, and a hub page's forwarder ignores a malformed
//! fragment instead of throwing.
//!
//! These tests need Node.js (`node` on the PATH). Without it each says so
//! on stderr and passes without running, unless `ENERGYBOARD_REQUIRE_NODE`
//! is set (`.ci/run` sets it, so in CI a missing node fails).

use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The inline `<script>` of the committed page `rel` that contains `needle`.
fn inline_script(rel: &str, needle: &str) -> String {
    let html = std::fs::read_to_string(format!("{ROOT}/site/{rel}")).unwrap();
    html.split("<script>")
        .skip(1)
        .filter_map(|s| s.split("</script>").next())
        .find(|s| s.contains(needle))
        .unwrap_or_else(|| panic!("site/{rel}: no inline script with {needle:?}"))
        .to_owned()
}

/// Runs `setup`, then `script`, then `report` (after pending promises) in
/// node; returns what it printed, or `None` (having said so) when node is
/// not installed and `ENERGYBOARD_REQUIRE_NODE` is not set.
fn node(setup: &str, script: &str, report: &str) -> Option<String> {
    let program = format!(
        "{setup}\ntry {{ {script} }} catch (e) {{ console.log('threw ' + e.name); }}\nsetTimeout(() => {{ {report} }}, 100);\n"
    );
    let out = match Command::new("node").args(["-e", &program]).output() {
        Ok(out) => out,
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                && std::env::var_os("ENERGYBOARD_REQUIRE_NODE").is_none() =>
        {
            eprintln!(
                "page_scripts: SKIPPED, node is not installed (install Node.js to run these \
                 tests; with ENERGYBOARD_REQUIRE_NODE set they fail instead)"
            );
            return None;
        }
        Err(e) => panic!("cannot run node (Node.js, needed by the page script tests): {e}"),
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_404_root_finder_probes_only_its_own_origin() {
    let script = inline_script("404.html", "assets/style.css");
    for path in [
        "//evil.example/x/y",
        "//evil.example/x/",
        "///evil.example/a/b/c",
        "/a//evil.example/b/",
        "/models/qwen/missing/",
    ] {
        let setup = format!(
            r#"globalThis.window = globalThis;
globalThis.location = new URL("https://mirror.example" + {path:?});
Object.defineProperty(globalThis.location, "pathname", {{ value: {path:?} }});
const probed = [];
globalThis.fetch = (u) => {{ probed.push(String(u)); return Promise.resolve({{ ok: false }}); }};
globalThis.document = {{ querySelectorAll: () => [] }};"#
        );
        let Some(out) = node(
            &setup,
            &script,
            r#"for (const u of probed) console.log(new URL(u, "https://mirror.example" + location.pathname).origin + " " + u);"#,
        ) else {
            return;
        };
        assert!(!out.is_empty(), "{path}: nothing probed");
        for line in out.lines() {
            assert!(
                line.starts_with("https://mirror.example "),
                "{path}: probes another origin: {line}"
            );
        }
    }
}

#[test]
fn the_hub_forwarder_ignores_a_malformed_fragment() {
    let script = inline_script(
        "models/stable-diffusion-3-5-large/index.html",
        "location.hash",
    );
    for (hash, forwards) in [("#%E0%A4%A", false), ("#%", false), ("#gpqa", true)] {
        let setup = format!(
            r#"const replaced = [];
globalThis.location = {{ hash: {hash:?}, search: "", replace: (u) => replaced.push(u) }};
globalThis.document = {{ getElementById: () => null, body: {{ getAttribute: () => "../../workloads/x/" }} }};"#
        );
        let Some(out) = node(
            &setup,
            &script,
            "console.log('replaced ' + replaced.length);",
        ) else {
            return;
        };
        assert!(!out.contains("threw"), "{hash}: {out}");
        assert!(
            out.contains(if forwards { "replaced 1" } else { "replaced 0" }),
            "{hash}: {out}"
        );
    }
}
