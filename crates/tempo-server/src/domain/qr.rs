//! QR codes as SVG, for what a printout points a phone at: a round's live
//! page on the pairing list, later a seat's link. Pure: text in, SVG text
//! out (the `qrcode` crate, MIT or Apache-2.0, does the encoding).

use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};

/// Bytes of text one code holds at most. A link is far shorter; the limit
/// keeps the code small enough to scan from a printed page (version 40 at
/// level M would hold 2331 bytes, in modules too small for A4).
pub(crate) const MAX_QR_TEXT: usize = 1000;

/// Why no code is made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum QrRefusal {
    #[error("text: empty")]
    Empty,
    #[error("text: {len} bytes, at most {MAX_QR_TEXT}")]
    TooLong { len: usize },
    #[error("text: control characters are not allowed")]
    Control,
}

/// `text` as a QR code (error correction level M: a printed sheet may be
/// creased or stained), an SVG document with a quiet zone, black modules on
/// white, scaled by its viewBox to whatever size the page gives it.
pub(crate) fn svg(text: &str) -> Result<String, QrRefusal> {
    if text.is_empty() {
        return Err(QrRefusal::Empty);
    }
    if text.len() > MAX_QR_TEXT {
        return Err(QrRefusal::TooLong { len: text.len() });
    }
    if text.chars().any(char::is_control) {
        return Err(QrRefusal::Control);
    }
    // Within the limit every text fits at level M.
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|_| QrRefusal::TooLong { len: text.len() })?;
    Ok(code
        .render::<svg::Color<'_>>()
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .quiet_zone(true)
        .module_dimensions(4, 4)
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_becomes_an_svg_document() {
        let text = svg("https://club.example/tournaments/abc?round=3").unwrap();
        assert!(text.contains("<svg"), "{text}");
        assert!(text.contains("viewBox"), "{text}");
        assert!(text.trim_end().ends_with("</svg>"));
        // The modules are drawn black on white.
        assert!(text.contains("#000000") && text.contains("#ffffff"));
    }

    #[test]
    fn longer_text_gives_a_larger_code() {
        let side = |s: &str| {
            let t = svg(s).unwrap();
            let at = t.find("width=\"").unwrap() + 7;
            t[at..].split('"').next().unwrap().parse::<u32>().unwrap()
        };
        assert!(side(&"x".repeat(MAX_QR_TEXT)) > side("x"));
    }

    #[test]
    fn the_limits_hold() {
        assert_eq!(svg(""), Err(QrRefusal::Empty));
        assert!(svg(&"é".repeat(MAX_QR_TEXT / 2)).is_ok());
        assert_eq!(
            svg(&"x".repeat(MAX_QR_TEXT + 1)),
            Err(QrRefusal::TooLong {
                len: MAX_QR_TEXT + 1
            })
        );
        assert_eq!(svg("a\nb"), Err(QrRefusal::Control));
    }
}
