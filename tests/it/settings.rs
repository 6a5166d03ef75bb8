//! The settings file: base URLs and files that are not regular files.

use energyboard::{Config, check_base_url};

#[test]
fn base_urls_need_a_host() {
    for good in [
        "https://user.github.io/repo/",
        "http://127.0.0.1:8000/",
        "https://example.org",
        "HTTPS://Example.org/a/b",
        "http://[::1]:8080/x/",
    ] {
        assert!(check_base_url(good).is_ok(), "{good}");
    }
    for bad in [
        "https://",
        "https:///repo/",
        "http://:80/",
        "https://user@evil.example/",
        "https://a b/",
        "https://x.org/?q=1",
        "https://x.org/#top",
        "https://x.org:99999/",
        "https://x.org/\"onload",
        "ftp://x.org/",
        "//x.org/",
        "https://\u{0}/",
    ] {
        assert!(check_base_url(bad).is_err(), "{bad}");
    }
}

#[cfg(unix)]
#[test]
fn settings_that_are_not_a_regular_file_are_refused() {
    for path in ["/dev/zero", "/dev/null", "/"] {
        let err = Config::load(std::path::Path::new(path)).unwrap_err();
        assert!(
            err.to_string().contains("is not a regular file"),
            "{path}: {err}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    assert!(Config::load(&fifo).is_err());
    let big = dir.path().join("big.toml");
    std::fs::write(&big, format!("# {}\n", "x".repeat(2 << 20))).unwrap();
    assert!(
        Config::load(&big)
            .unwrap_err()
            .to_string()
            .contains("larger than")
    );
    assert_eq!(
        Config::load(&dir.path().join("missing.toml")).unwrap(),
        Config::default()
    );
}

#[test]
fn blank_source_texts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for field in ["name", "label", "licence", "publisher"] {
        let path = dir.path().join("energyboard.toml");
        let mut entry = vec![
            ("id", "lab"),
            ("name", "Lab"),
            ("url", "https://example.org/"),
            ("licence", "CC-BY-4.0"),
        ];
        entry.retain(|(k, _)| *k != field);
        entry.push((field, "  "));
        let lines: Vec<String> = entry.iter().map(|(k, v)| format!("{k} = {v:?}")).collect();
        let text = lines.join("\n") + "\n";
        std::fs::write(&path, format!("[[sources]]\n{text}")).unwrap();
        let err = format!("{:#}", Config::load(&path).unwrap_err());
        assert!(
            err.contains(&format!("{field}: is blank")),
            "{field}: {err}"
        );
    }
}

/// The about page's link to the guide (`docs/README.md`) for a site built
/// from the seed files with `repository` and `base_url` as given.
fn guide_link(repository: Option<&str>, base_url: Option<&str>) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = dir.path().join("site");
    energyboard::build(&energyboard::BuildOptions {
        data_dir: root.join("tests/fixtures/seeds"),
        static_dir: root.join("static"),
        out_dir: out.clone(),
        base_url: base_url.map(str::to_owned),
        repository: repository.map(str::to_owned),
        ..energyboard::BuildOptions::default()
    })
    .unwrap();
    let about = std::fs::read_to_string(out.join("about/index.html")).unwrap();
    let end = about.find("/docs/README.md\"")?;
    let start = about[..end].rfind("href=\"")? + 6;
    Some(about[start..end + 15].to_owned())
}

#[test]
fn the_about_page_links_to_the_guide_when_the_repository_is_known() {
    // Named in the settings: linked whatever the base URL.
    let named = Some("https://github.com/someone/mirror/blob/main/docs/README.md".to_owned());
    assert_eq!(
        guide_link(Some("https://github.com/someone/mirror"), None),
        named
    );
    assert_eq!(
        guide_link(
            Some("https://github.com/someone/mirror"),
            Some("https://energy.example.org/")
        ),
        named
    );
    // Else derived from a GitHub Pages base URL.
    assert_eq!(
        guide_link(None, Some("https://user.github.io/repo/")),
        Some("https://github.com/user/repo/blob/main/docs/README.md".to_owned())
    );
    // Else unknown: the page names the folder, links nowhere.
    assert_eq!(guide_link(None, Some("https://energy.example.org/")), None);
    assert_eq!(guide_link(None, None), None);
}

#[test]
fn a_repository_that_is_not_a_web_address_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("energyboard.toml");
    std::fs::write(&path, "repository = \"git@github.com:user/repo.git\"\n").unwrap();
    let err = format!("{:#}", Config::load(&path).unwrap_err());
    assert!(
        err.contains("energyboard.toml: repository:") && err.contains("http(s)"),
        "{err}"
    );
    std::fs::write(&path, "repository = \"https://github.com/user/repo/\"\n").unwrap();
    assert_eq!(
        Config::load(&path).unwrap().repository().as_deref(),
        Some("https://github.com/user/repo")
    );
}

#[test]
fn the_command_line_names_the_repository_over_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("energyboard.toml");
    std::fs::write(
        &config,
        "repository = \"https://github.com/settings/one\"\n",
    )
    .unwrap();
    let out = dir.path().join("site");
    let build = |repository: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_energyboard"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "build",
                "--data",
                "tests/fixtures/seeds",
                "--force",
                "--out",
            ])
            .arg(&out)
            .arg("--config")
            .arg(&config)
            .args(["--repository", repository])
            .output()
            .unwrap()
    };
    let named = build("https://github.com/cli/two/");
    assert!(
        named.status.success(),
        "{}",
        String::from_utf8_lossy(&named.stderr)
    );
    let about = std::fs::read_to_string(out.join("about/index.html")).unwrap();
    assert!(
        about.contains("href=\"https://github.com/cli/two/blob/main/docs/README.md\""),
        "the about page links to the guide of the repository named on the command line"
    );
    assert!(!about.contains("github.com/settings/one"));

    let refused = build("git@github.com:cli/two.git");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && err.contains("--repository:") && err.contains("http(s)"),
        "{err}"
    );
}
