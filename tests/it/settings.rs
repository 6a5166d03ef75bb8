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
