//! The web app's translation catalogues (`web/i18n/*.js`, each
//! `export default { de: {...}, en: {...} }`, one key a line): every key is
//! in both languages, no key twice in a language, and every key a page
//! names literally (`t('some.key'…)`) is in some catalogue.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

fn js_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            js_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "js") {
            out.push(path);
        }
    }
}

/// The key a catalogue line defines: `'a.b': …` or `name: …`.
fn key_of(line: &str) -> Option<String> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix('\'') {
        let end = rest.find('\'')?;
        return rest[end + 1..]
            .trim_start()
            .starts_with(':')
            .then(|| rest[..end].to_string());
    }
    let end = line.find(':')?;
    let name = &line[..end];
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| name.to_string())
}

/// Language → keys, in the order written (duplicates kept).
fn catalogue(path: &Path) -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(path).expect("a readable catalogue");
    let mut languages = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(lang) = ["de", "en"].iter().find(|l| trimmed == format!("{l}: {{")) {
            current = Some(lang.to_string());
            languages.insert(lang.to_string(), Vec::new());
            continue;
        }
        if trimmed.starts_with('}') {
            current = None;
            continue;
        }
        if let (Some(lang), Some(key)) = (&current, key_of(line)) {
            languages.get_mut(lang).expect("opened").push(key);
        }
    }
    languages
}

fn catalogues() -> Vec<(PathBuf, BTreeMap<String, Vec<String>>)> {
    let mut files = Vec::new();
    js_files(&web().join("i18n"), &mut files);
    files.sort();
    assert!(!files.is_empty(), "web/i18n holds the catalogues");
    files
        .into_iter()
        .map(|f| (f.clone(), catalogue(&f)))
        .collect()
}

#[test]
fn every_key_is_in_german_and_english_once() {
    let mut problems = Vec::new();
    for (path, languages) in catalogues() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (Some(de), Some(en)) = (languages.get("de"), languages.get("en")) else {
            problems.push(format!("{name}: needs a de and an en block"));
            continue;
        };
        for (lang, keys) in [("de", de), ("en", en)] {
            let mut seen = BTreeSet::new();
            for key in keys {
                if !seen.insert(key) {
                    problems.push(format!("{name}: {key} twice in {lang}"));
                }
            }
        }
        let de: BTreeSet<_> = de.iter().collect();
        let en: BTreeSet<_> = en.iter().collect();
        for key in de.difference(&en) {
            problems.push(format!("{name}: {key} has no English"));
        }
        for key in en.difference(&de) {
            problems.push(format!("{name}: {key} has no German"));
        }
        if de.is_empty() {
            problems.push(format!("{name}: no keys found"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Literal keys in `t('key')` / `t('key', vars)` calls.
fn literal_keys(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find("t('").map(|i| i + from) {
        from = i + 3;
        let before = i.checked_sub(1).map(|j| bytes[j]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$')
        {
            continue;
        }
        let Some(end) = text[from..].find('\'').map(|e| e + from) else {
            break;
        };
        let after = text[end + 1..].trim_start();
        if after.starts_with(',') || after.starts_with(')') {
            keys.push(text[from..end].to_string());
        }
    }
    keys
}

#[test]
fn every_literal_key_a_page_uses_exists() {
    let known: BTreeSet<String> = catalogues()
        .into_iter()
        .flat_map(|(_, languages)| languages.into_values().flatten())
        .collect();
    let mut files = Vec::new();
    js_files(&web(), &mut files);
    files.sort();
    let mut missing = Vec::new();
    for path in files.iter().filter(|p| !p.starts_with(web().join("i18n"))) {
        let text = std::fs::read_to_string(path).expect("a readable script");
        // Comment lines may show examples, not uses.
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//") && !l.trim_start().starts_with('*'))
            .collect::<Vec<_>>()
            .join("\n");
        for key in literal_keys(&code) {
            if !known.contains(&key) {
                let name = path.strip_prefix(web()).unwrap().display();
                missing.push(format!("{name}: t('{key}') is in no catalogue"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn literal_keys_are_found_and_lookalikes_skipped() {
    let text = "t('a.b'); t('c', {x}); get('/api'); set('x', 1); t('d.' + v); it('e')";
    assert_eq!(literal_keys(text), ["a.b", "c"]);
    assert_eq!(key_of("    'a.b': 'x',"), Some("a.b".into()));
    assert_eq!(key_of("    notFound: 'x',"), Some("notFound".into()));
    assert_eq!(key_of("  // a comment: here"), None);
}
