//! Parsing: the bytes of a model file (or of the change history) into typed
//! structs. Every error is located: the file, the JSON path of the field
//! (`configurations[3].median_itl_ms`, from `serde_path_to_error`), the line
//! and column, and what is wrong in a reader's words.
//!
//! serde_json tells an error's kind ([`serde_json::Error::classify`]) and
//! position ([`serde_json::Error::line`], [`serde_json::Error::column`]) by
//! typed accessors, and nothing else: which field is missing, which type
//! was expected, that the nesting was too deep, exist only in its message.
//! [`describe_json_error`] is the one place that reads that text.

use std::path::Path;

use serde_json::error::Category;

use super::{Problem, problem};
use crate::model::ModelFile;

/// Deepest nesting of arrays and objects accepted anywhere in a model file,
/// unknown fields included: serde_json's own recursion limit, which
/// [`parse_model`] applies to every value. The seed files nest 3 levels deep.
pub const MAX_NESTING: usize = 128;

/// Parses the bytes of one model file of any kind, naming the JSON path of
/// any field that does not fit the format.
pub fn parse_model(path: &Path, bytes: &[u8]) -> Result<ModelFile, Problem> {
    parse_as(path, bytes, Format::ModelFile)
}

/// Which format a document is in, for the words of an unknown-field error:
/// in a model file only a diffusion configuration refuses unknown fields;
/// the change history refuses them everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    /// A model file of either kind.
    ModelFile,
    /// The change history, `data/changes.json`.
    ChangeHistory,
}

/// Parses `bytes` as a `T`, every error located (see the module doc), in
/// two passes: the first walks every value (unknown fields too) so that
/// syntax errors, invalid UTF-8, numbers out of range and nesting deeper
/// than [`MAX_NESTING`] are reported with their path; the second reads the
/// typed structs.
pub(super) fn parse_as<T: serde::de::DeserializeOwned>(
    path: &Path,
    bytes: &[u8],
    format: Format,
) -> Result<T, Problem> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(problem(
            path,
            "(file)",
            "starts with a UTF-8 byte-order mark, which JSON does not allow; save the file as \
                UTF-8 without BOM",
        ));
    }
    // A pre-scan that let a plain file skip the walk was measured and
    // removed (2026-12-02, `cargo bench --bench load`): it saved 23 ms of
    // read, parse and validate for 1,000 synthetic files (88.6 against
    // 112.0 ms on both cores), about 1.5 ms for the leaderboard's 62.
    //
    // Tracking the path costs as much as the parse: the two passes run
    // without it first, and again with it only when one fails, to name
    // the field (callgrind, 200 synthetic models, 2026-12-07).
    if let Some(parsed) = parse_untracked(bytes) {
        return Ok(parsed);
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let walked = serde_path_to_error::deserialize::<_, AnyValue>(&mut de);
    if let Err(err) = std::str::from_utf8(bytes) {
        let at = err.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let field = walked
            .err()
            .map_or_else(|| "(file)".to_owned(), |e| json_path(e.path()));
        return Err(problem(
            path,
            field,
            format!("is not valid UTF-8: invalid byte at offset {at} (line {line})"),
        ));
    }
    if let Err(err) = walked {
        return Err(problem(
            path,
            json_path(err.path()),
            describe_json_error(err.inner(), format),
        ));
    }
    if let Err(err) = de.end() {
        return Err(problem(path, "(file)", describe_json_error(&err, format)));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let mut field = json_path(err.path());
        // The path ends at the object that lacks the field; name the field.
        if let Some(missing) = missing_field(err.inner()) {
            field = if field == "(file)" {
                missing
            } else {
                format!("{field}.{missing}")
            };
        }
        problem(path, field, describe_json_error(err.inner(), format))
    })
}

/// The two passes of [`parse_as`] without tracking the path: the value
/// when both succeed and the bytes are UTF-8, which is when the tracked
/// passes succeed too.
fn parse_untracked<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    serde::Deserialize::deserialize(&mut de)
        .and_then(|AnyValue| de.end())
        .ok()?;
    std::str::from_utf8(bytes).ok()?;
    serde_json::from_slice(bytes).ok()
}

/// Any JSON value, walked and thrown away. Unlike
/// [`serde::de::IgnoredAny`] it goes through `deserialize_any`, so
/// serde_json's nesting limit and number range apply; unlike a
/// `serde_json::Value` it builds nothing: `check` of one 9.5 MB file (a
/// list of 1.9 million numbers) peaks at 17 MB and 0.10 s with it, 149 MB
/// and 0.23 s with a `Value` (2026-12-04).
struct AnyValue;

impl<'de> serde::Deserialize<'de> for AnyValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyValueVisitor)
    }
}

struct AnyValueVisitor;

impl<'de> serde::de::Visitor<'de> for AnyValueVisitor {
    type Value = AnyValue;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_i64<E>(self, _: i64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_u64<E>(self, _: u64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_f64<E>(self, _: f64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_str<E>(self, _: &str) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_unit<E>(self) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<AnyValue, A::Error> {
        while seq.next_element::<AnyValue>()?.is_some() {}
        Ok(AnyValue)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<AnyValue, A::Error> {
        while map
            .next_entry::<serde::de::IgnoredAny, AnyValue>()?
            .is_some()
        {}
        Ok(AnyValue)
    }
}

/// A JSON path as readers write it, e.g. `configurations[3].median_itl_ms`;
/// `(file)` for the document itself. Segments serde could not name are left
/// out, and a very deep path is cut short.
fn json_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    const SHOWN: usize = 12;
    let mut out = String::new();
    let segments: Vec<&Segment> = path
        .iter()
        .filter(|s| !matches!(s, Segment::Unknown))
        .collect();
    for segment in segments.iter().take(SHOWN) {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => push_key(&mut out, key),
            Segment::Unknown => {}
        }
    }
    if segments.len() > SHOWN {
        out.push('…');
    }
    if out.is_empty() {
        "(file)".to_owned()
    } else {
        out
    }
}

/// Appends an object key to a JSON path: `.key`, or `["key"]` with escapes
/// when the key holds control characters (which would otherwise reach the
/// terminal raw) or is empty.
pub(super) fn push_key(path: &mut String, key: &str) {
    if key.is_empty() || key.chars().any(char::is_control) {
        path.push_str(&format!("[{key:?}]"));
    } else {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    }
}

/// serde_json's message without its position.
fn serde_message(err: &serde_json::Error) -> String {
    let full = err.to_string();
    let position = format!(" at line {} column {}", err.line(), err.column());
    full.strip_suffix(&position)
        .map_or_else(|| full.clone(), str::to_owned)
}

/// The name of the field a "missing field" error says is absent.
fn missing_field(err: &serde_json::Error) -> Option<String> {
    let message = serde_message(err);
    let name = message.strip_prefix("missing field `")?.strip_suffix('`')?;
    (err.classify() == Category::Data).then(|| name.to_owned())
}

/// serde_json's error in a reader's words, with its line and column.
/// Reads serde_json's message (the module doc says why text): the category
/// ([`serde_json::Error::classify`]) decides which texts are looked for,
/// and the position suffix is cut by the line and column numbers. A wrong
/// type comes back in a reader's words ("a whole number from 0 to
/// 4294967295", not "u32"). `serde_json_wording_is_pinned` below pins every
/// text matched here, so an upgrade that rewords one fails that test
/// instead of degrading a message. The parts of the texts that come from
/// the data (a field name, a string) are taken from the end that does not:
/// the last `, expected ` splits what was found from what was expected.
fn describe_json_error(err: &serde_json::Error, format: Format) -> String {
    let message = serde_message(err);
    let words = match err.classify() {
        // Never from a byte slice; worded for completeness.
        Category::Io => {
            return match err.io_error_kind() {
                Some(kind) => format!("cannot read: {}", std::io::Error::from(kind)),
                None => "cannot read".to_owned(),
            };
        }
        Category::Syntax if message == "recursion limit exceeded" => {
            format!("arrays and objects are nested more than {MAX_NESTING} levels deep")
        }
        Category::Syntax if message == "number out of range" => {
            "the number is too large for a 64-bit float (at most about 1.8e308)".to_owned()
        }
        Category::Syntax => format!("invalid JSON: {message}"),
        Category::Eof => format!("the file ends too early (truncated JSON?): {message}"),
        Category::Data if missing_field(err).is_some() => "is required but missing".to_owned(),
        Category::Data => data_in_words(&message, format),
    };
    format!("{words} (line {}, column {})", err.line(), err.column())
}

/// serde's name of the type expected, in a reader's words.
fn type_in_words(expected: &str) -> String {
    match expected {
        "f64" | "f32" => "a number".to_owned(),
        "u32" => format!("a whole number from 0 to {}", u32::MAX),
        "u64" => format!("a whole number from 0 to {}", u64::MAX),
        "a sequence" => "a list".to_owned(),
        "a boolean" | "a string" => expected.to_owned(),
        other if other.starts_with("struct ") || other == "a map" => "an object".to_owned(),
        other => other.to_owned(),
    }
}

/// serde's `Unexpected`, what was found, in a reader's words.
fn value_in_words(found: &str) -> String {
    // A string comes quoted (its ends are never '`'), the others in '`'.
    for (serde, words) in [
        ("string ", "the string"),
        ("integer ", "the number"),
        ("floating point ", "the number"),
        ("boolean ", "the boolean"),
    ] {
        if let Some(value) = found.strip_prefix(serde) {
            return format!("{words} {}", value.trim_matches('`'));
        }
    }
    match found {
        "map" => "an object".to_owned(),
        "sequence" => "a list".to_owned(),
        "null" => "null".to_owned(),
        other => other.to_owned(),
    }
}

/// A data error (a value that does not fit the format) in a reader's words.
fn data_in_words(message: &str, format: Format) -> String {
    fn split(rest: &str) -> Option<(&str, &str)> {
        rest.rsplit_once(", expected ")
    }
    let wrong = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "));
    if let Some((found, expected)) = wrong.and_then(split) {
        return format!(
            "expected {}, found {}",
            type_in_words(expected),
            value_in_words(found)
        );
    }
    // A list where a struct belongs (serde also reads a struct from a
    // list of its fields in order; a short or long list is refused so).
    if message.starts_with("invalid length ") && message.contains(", expected struct ") {
        return "expected an object, found a list".to_owned();
    }
    if let Some((name, expected)) = message.strip_prefix("unknown field `").and_then(split)
        && name.ends_with('`')
    {
        let fields = expected
            .strip_prefix("one of ")
            .unwrap_or(expected)
            .replace('`', "");
        return match format {
            Format::ChangeHistory => format!(
                "is not a field of the change history's format (energyboard reads version \
                    \"1\"); its fields are {fields}"
            ),
            // In a model file only an output-length histogram refuses them.
            Format::ModelFile => {
                format!("is not a field of this object; its fields are {fields}")
            }
        };
    }
    if let Some((found, expected)) = message.strip_prefix("unknown variant `").and_then(split)
        && let Some(found) = found.strip_suffix('`')
    {
        return format!(
            "expected {}, found the string \"{found}\"",
            expected.replace('`', "\"")
        );
    }
    message.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Closed {
        count: u32,
        rate: f64,
        kind: Kind,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        Image,
        Video,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Pair {
        a: u32,
        b: u32,
    }

    /// A serde_json error, its text as this version of serde_json writes it,
    /// and what [`describe_json_error`] makes of it.
    struct Pinned {
        error: serde_json::Error,
        serde_says: &'static str,
        we_say: String,
    }

    fn error<T: serde::de::DeserializeOwned + std::fmt::Debug>(json: &str) -> serde_json::Error {
        serde_json::from_str::<T>(json).unwrap_err()
    }

    fn wrong(found: &str, expected: &str) -> String {
        format!("expected {expected}, found {found}")
    }

    /// If an upgrade rewords a message, this fails: update
    /// `describe_json_error` to the new text, then the table that failed.
    fn check_pinned(cases: Vec<Pinned>) {
        for case in cases {
            let err = case.error;
            assert_eq!(err.to_string(), case.serde_says);
            let position = format!(" (line {}, column {})", err.line(), err.column());
            assert_eq!(
                describe_json_error(&err, Format::ModelFile),
                case.we_say + &position,
                "{}",
                case.serde_says
            );
        }
    }

    /// serde_json's wording of syntax, missing fields and truncation.
    #[test]
    fn serde_json_syntax_wording_is_pinned() {
        let deep = "[".repeat(200);
        check_pinned(vec![
            Pinned {
                error: error::<serde_json::Value>(&deep),
                serde_says: "recursion limit exceeded at line 1 column 128",
                we_say: "arrays and objects are nested more than 128 levels deep".into(),
            },
            Pinned {
                error: error::<serde_json::Value>("[1e400]"),
                serde_says: "number out of range at line 1 column 6",
                we_say: "the number is too large for a 64-bit float (at most about 1.8e308)".into(),
            },
            Pinned {
                error: error::<Closed>(r#"{"rate": 1.0, "kind": "image"}"#),
                serde_says: "missing field `count` at line 1 column 30",
                we_say: "is required but missing".into(),
            },
            Pinned {
                error: error::<Closed>(r#"{"count": 1"#),
                serde_says: "EOF while parsing an object at line 1 column 11",
                we_say: "the file ends too early (truncated JSON?): EOF while parsing an object"
                    .into(),
            },
        ]);
        let missing = error::<Closed>(r#"{"rate": 1.0, "kind": "image"}"#);
        assert_eq!(missing_field(&missing).as_deref(), Some("count"));
    }

    /// serde_json's wording of a value of the wrong type or an unknown name.
    #[test]
    fn serde_json_type_wording_is_pinned() {
        let u32_words = "a whole number from 0 to 4294967295";
        check_pinned(vec![
            Pinned {
                error: error::<Closed>(r#"{"count": "fast"}"#),
                serde_says: "invalid type: string \"fast\", expected u32 at line 1 column 16",
                we_say: wrong("the string \"fast\"", u32_words),
            },
            Pinned {
                error: error::<Closed>(r#"{"count": -2}"#),
                serde_says: "invalid value: integer `-2`, expected u32 at line 1 column 12",
                we_say: wrong("the number -2", u32_words),
            },
            Pinned {
                error: error::<Closed>(r#"{"rate": true}"#),
                serde_says: "invalid type: boolean `true`, expected f64 at line 1 column 13",
                we_say: wrong("the boolean true", "a number"),
            },
            Pinned {
                error: error::<Closed>(r#"{"count": 1.5}"#),
                serde_says: "invalid type: floating point `1.5`, expected u32 at line 1 column 13",
                we_say: wrong("the number 1.5", u32_words),
            },
            Pinned {
                error: error::<Closed>(r#"{"rate": {}}"#),
                serde_says: "invalid type: map, expected f64 at line 1 column 9",
                we_say: wrong("an object", "a number"),
            },
            Pinned {
                error: error::<Vec<u64>>("[[]]"),
                serde_says: "invalid type: sequence, expected u64 at line 1 column 1",
                we_say: wrong("a list", &format!("a whole number from 0 to {}", u64::MAX)),
            },
            Pinned {
                error: error::<Vec<String>>("null"),
                serde_says: "invalid type: null, expected a sequence at line 1 column 4",
                we_say: wrong("null", "a list"),
            },
            Pinned {
                error: error::<Closed>(r#""x""#),
                serde_says: "invalid type: string \"x\", expected struct Closed at line 1 column 3",
                we_say: wrong("the string \"x\"", "an object"),
            },
            Pinned {
                error: error::<Closed>("[]"),
                serde_says: "invalid length 0, expected struct Closed with 3 elements at line 1 \
                    column 2",
                we_say: wrong("a list", "an object"),
            },
            Pinned {
                error: error::<Closed>(r#"{"count": 1, "odd, expected `x`": 2}"#),
                serde_says: "unknown field `odd, expected `x``, expected one of `count`, `rate`, \
                    `kind` at line 1 column 32",
                we_say: "is not a field of this object; its fields are count, rate, kind".into(),
            },
            Pinned {
                error: error::<Closed>(r#"{"count": 1, "rate": 1.0, "kind": "audio"}"#),
                serde_says: "unknown variant `audio`, expected `image` or `video` at line 1 \
                    column 41",
                we_say: wrong("the string \"audio\"", "\"image\" or \"video\""),
            },
            Pinned {
                error: error::<Pair>("[1]"),
                serde_says: "invalid length 1, expected struct Pair with 2 elements at line 1 \
                    column 3",
                we_say: wrong("a list", "an object"),
            },
        ]);
    }

    #[test]
    fn change_history_words_its_own_unknown_fields() {
        let bytes = br#"{"count": 1, "rate": 1.0, "kind": "image", "median_itl_ms": 3}"#;
        let history = parse_as::<Closed>(Path::new("changes.json"), bytes, Format::ChangeHistory)
            .unwrap_err();
        assert_eq!(history.field, "median_itl_ms");
        assert!(
            history
                .message
                .starts_with("is not a field of the change history's format"),
            "{}",
            history.message
        );
        let model = parse_as::<Closed>(Path::new("m.json"), bytes, Format::ModelFile).unwrap_err();
        assert!(
            model.message.starts_with("is not a field of this object"),
            "{}",
            model.message
        );
    }
}
