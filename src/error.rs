//! Parse errors: the standard's error codes and where they happened.

use crate::position::LineCol;
use crate::token::Span;

/// A parse error code, as the standard names it in its parse-error table
/// (`parse-errors`), plus one legacy code still expected by html5lib-tests
/// and two of htmltok's own for its optional resource limits.
///
/// ```
/// use htmltok::ErrorCode;
/// assert_eq!(ErrorCode::EofInTag.as_str(), "eof-in-tag");
/// assert_eq!(ErrorCode::from_code("eof-in-tag"), Some(ErrorCode::EofInTag));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `abrupt-closing-of-empty-comment`: Empty comment closed early by '>' as in <!--> or <!--->; treated as a normal closed comment.
    AbruptClosingOfEmptyComment,
    /// `abrupt-doctype-public-identifier`: '>' inside a DOCTYPE public identifier before its closing quote; DOCTYPE forces quirks.
    AbruptDoctypePublicIdentifier,
    /// `abrupt-doctype-system-identifier`: '>' inside a DOCTYPE system identifier before its closing quote; DOCTYPE forces quirks.
    AbruptDoctypeSystemIdentifier,
    /// `absence-of-digits-in-numeric-character-reference`: Numeric reference like &#x; or &#qux; with no digits; left unresolved as text.
    AbsenceOfDigitsInNumericCharacterReference,
    /// `cdata-in-html-content`: <![CDATA[ seen outside SVG/MathML content; the whole section becomes a comment.
    CdataInHtmlContent,
    /// `character-reference-outside-unicode-range`: Numeric reference above U+10FFFF; resolves to U+FFFD.
    CharacterReferenceOutsideUnicodeRange,
    /// `control-character-in-input-stream`: Input contains a control code point other than ASCII whitespace or NUL; kept as-is.
    ControlCharacterInInputStream,
    /// `control-character-reference`: Numeric reference to a control (non-whitespace, or CR); kept, except C1 values remapped by the numeric reference end state table.
    ControlCharacterReference,
    /// `disallowed-processing-instruction-target`: (processing instructions) PI target is xml or xml-stylesheet (ASCII case-insensitive); "?" plus the rest up to '>' becomes a comment.
    DisallowedProcessingInstructionTarget,
    /// `duplicate-attribute`: An attribute name repeats within one tag; later duplicates are dropped.
    DuplicateAttribute,
    /// `end-tag-with-attributes`: End tag carries attributes; they are discarded.
    EndTagWithAttributes,
    /// `end-tag-with-trailing-solidus`: End tag has '/' right before '>' (e.g. </div/>); treated as a plain end tag.
    EndTagWithTrailingSolidus,
    /// `eof-before-tag-name`: Input ends right after '<' or '</'; those characters are emitted as text.
    EofBeforeTagName,
    /// `eof-in-cdata`: Input ends inside a CDATA section; section is closed at EOF.
    EofInCdata,
    /// `eof-in-comment`: Input ends inside a comment; comment is emitted as if closed at EOF.
    EofInComment,
    /// `eof-in-doctype`: Input ends inside a DOCTYPE; DOCTYPE emitted with force-quirks on.
    EofInDoctype,
    /// `eof-in-processing-instruction`: (processing instructions) Input ends inside a processing instruction (e.g. "<?" or "<?marker name="); nothing is emitted for it.
    EofInProcessingInstruction,
    /// `eof-in-script-html-comment-like-text`: Input ends inside "<!--"-like text within script content.
    EofInScriptHtmlCommentLikeText,
    /// `eof-in-tag`: Input ends inside a start or end tag; the tag is dropped.
    EofInTag,
    /// `incorrectly-closed-comment`: Comment closed with "--!>" instead of "-->"; accepted as closed.
    IncorrectlyClosedComment,
    /// `incorrectly-opened-comment`: "<!" not followed by "--", DOCTYPE or [CDATA[; content up to '>' becomes a bogus comment.
    IncorrectlyOpenedComment,
    /// `invalid-character-sequence-after-doctype-name`: Something other than PUBLIC/SYSTEM after the DOCTYPE name; ids ignored, quirks forced.
    InvalidCharacterSequenceAfterDoctypeName,
    /// `invalid-first-character-of-processing-instruction-target`: (processing instructions) After "<?" the next code point is not an ASCII letter or '_'; "?" plus the rest up to '>' becomes a comment.
    InvalidFirstCharacterOfProcessingInstructionTarget,
    /// `invalid-first-character-of-tag-name`: Non-letter where a tag name should start; '<' becomes text (start tag) or a bogus comment follows (end tag).
    InvalidFirstCharacterOfTagName,
    /// `invalid-processing-instruction-target`: (processing instructions) PI target contains a code point other than ASCII alphanumeric, '-' or '_'; "?" plus the rest up to '>' becomes a comment.
    InvalidProcessingInstructionTarget,
    /// `missing-attribute-value`: '>' where an attribute value was expected (e.g. <div id=>); value is empty.
    MissingAttributeValue,
    /// `missing-doctype-name`: DOCTYPE without a name (<!DOCTYPE>); force-quirks.
    MissingDoctypeName,
    /// `missing-doctype-public-identifier`: '>' where the public identifier should start; force-quirks.
    MissingDoctypePublicIdentifier,
    /// `missing-doctype-system-identifier`: '>' where the system identifier should start; force-quirks.
    MissingDoctypeSystemIdentifier,
    /// `missing-end-tag-name`: "</>" seen; the whole sequence is ignored.
    MissingEndTagName,
    /// `missing-quote-before-doctype-public-identifier`: Public identifier not introduced by a quote; id ignored, force-quirks.
    MissingQuoteBeforeDoctypePublicIdentifier,
    /// `missing-quote-before-doctype-system-identifier`: System identifier not introduced by a quote; id ignored, force-quirks.
    MissingQuoteBeforeDoctypeSystemIdentifier,
    /// `missing-semicolon-after-character-reference`: Character reference not terminated by ';'; resolved as if it were.
    MissingSemicolonAfterCharacterReference,
    /// `missing-whitespace-after-doctype-public-keyword`: No whitespace between PUBLIC and the public identifier; parsed as if present.
    MissingWhitespaceAfterDoctypePublicKeyword,
    /// `missing-whitespace-after-doctype-system-keyword`: No whitespace between SYSTEM and the system identifier; parsed as if present.
    MissingWhitespaceAfterDoctypeSystemKeyword,
    /// `missing-whitespace-before-doctype-name`: No whitespace between DOCTYPE and the name; parsed as if present.
    MissingWhitespaceBeforeDoctypeName,
    /// `missing-whitespace-between-attributes`: Two attributes not separated by whitespace; parsed as if separated.
    MissingWhitespaceBetweenAttributes,
    /// `missing-whitespace-between-doctype-public-and-system-identifiers`: Public and system ids not separated by whitespace; parsed as if separated.
    MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
    /// `nested-comment`: "<!--" seen inside a comment; the first "-->" still closes it.
    NestedComment,
    /// `noncharacter-character-reference`: Numeric reference to a Unicode noncharacter; kept as-is.
    NoncharacterCharacterReference,
    /// `noncharacter-in-input-stream`: Input contains a noncharacter code point; kept as-is.
    NoncharacterInInputStream,
    /// `non-void-html-element-start-tag-with-trailing-solidus`: Tree-construction error: "/>" on a non-void HTML element start tag; the slash is ignored (not raised by the tokenizer itself).
    NonVoidHtmlElementStartTagWithTrailingSolidus,
    /// `null-character-reference`: Numeric reference to U+0000; resolves to U+FFFD.
    NullCharacterReference,
    /// `surrogate-character-reference`: Numeric reference to a surrogate (D800-DFFF); resolves to U+FFFD.
    SurrogateCharacterReference,
    /// `surrogate-in-input-stream`: Input contains a lone surrogate (only possible via script APIs); kept as-is.
    SurrogateInInputStream,
    /// `unexpected-character-after-doctype-system-identifier`: Non-whitespace junk after the system identifier; ignored (no quirks).
    UnexpectedCharacterAfterDoctypeSystemIdentifier,
    /// `unexpected-character-in-attribute-name`: '"', ''' or '<' inside an attribute name; kept as part of the name.
    UnexpectedCharacterInAttributeName,
    /// `unexpected-character-in-unquoted-attribute-value`: '"', ''', '<', '=' or '`' inside an unquoted value; kept as part of the value.
    UnexpectedCharacterInUnquotedAttributeValue,
    /// `unexpected-equals-sign-before-attribute-name`: '=' where an attribute name should start; it becomes the first character of the name.
    UnexpectedEqualsSignBeforeAttributeName,
    /// `unexpected-null-character`: U+0000 in a position where it is ignored or replaced by U+FFFD.
    UnexpectedNullCharacter,
    /// `unexpected-solidus-in-tag`: '/' in a tag not directly followed by '>'; treated like whitespace.
    UnexpectedSolidusInTag,
    /// `unknown-named-character-reference`: Ambiguous ampersand: "&name;" that matches no named reference; left as text.
    UnknownNamedCharacterReference,
    /// `unexpected-question-mark-instead-of-tag-name`: '?' right after '<' (html5lib-tests behaviour, the default): a bogus comment starting with '?'. Removed from the standard with processing instructions.
    UnexpectedQuestionMarkInsteadOfTagName,
    /// `too-many-attributes` (htmltok's own, only with
    /// [`Config::max_attributes`](crate::Config::max_attributes)): a start tag
    /// had more attributes than the limit; the rest were dropped.
    TooManyAttributes,
    /// `token-too-long` (htmltok's own, only with
    /// [`Config::max_token_len`](crate::Config::max_token_len)): a name,
    /// value, comment or identifier was longer than the limit and was cut.
    TokenTooLong,
}

impl ErrorCode {
    /// Every code, in the standard's (alphabetical) order, then the legacy
    /// code, then htmltok's own resource-limit codes.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::AbruptClosingOfEmptyComment,
        ErrorCode::AbruptDoctypePublicIdentifier,
        ErrorCode::AbruptDoctypeSystemIdentifier,
        ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
        ErrorCode::CdataInHtmlContent,
        ErrorCode::CharacterReferenceOutsideUnicodeRange,
        ErrorCode::ControlCharacterInInputStream,
        ErrorCode::ControlCharacterReference,
        ErrorCode::DisallowedProcessingInstructionTarget,
        ErrorCode::DuplicateAttribute,
        ErrorCode::EndTagWithAttributes,
        ErrorCode::EndTagWithTrailingSolidus,
        ErrorCode::EofBeforeTagName,
        ErrorCode::EofInCdata,
        ErrorCode::EofInComment,
        ErrorCode::EofInDoctype,
        ErrorCode::EofInProcessingInstruction,
        ErrorCode::EofInScriptHtmlCommentLikeText,
        ErrorCode::EofInTag,
        ErrorCode::IncorrectlyClosedComment,
        ErrorCode::IncorrectlyOpenedComment,
        ErrorCode::InvalidCharacterSequenceAfterDoctypeName,
        ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget,
        ErrorCode::InvalidFirstCharacterOfTagName,
        ErrorCode::InvalidProcessingInstructionTarget,
        ErrorCode::MissingAttributeValue,
        ErrorCode::MissingDoctypeName,
        ErrorCode::MissingDoctypePublicIdentifier,
        ErrorCode::MissingDoctypeSystemIdentifier,
        ErrorCode::MissingEndTagName,
        ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier,
        ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
        ErrorCode::MissingSemicolonAfterCharacterReference,
        ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword,
        ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword,
        ErrorCode::MissingWhitespaceBeforeDoctypeName,
        ErrorCode::MissingWhitespaceBetweenAttributes,
        ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
        ErrorCode::NestedComment,
        ErrorCode::NoncharacterCharacterReference,
        ErrorCode::NoncharacterInInputStream,
        ErrorCode::NonVoidHtmlElementStartTagWithTrailingSolidus,
        ErrorCode::NullCharacterReference,
        ErrorCode::SurrogateCharacterReference,
        ErrorCode::SurrogateInInputStream,
        ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
        ErrorCode::UnexpectedCharacterInAttributeName,
        ErrorCode::UnexpectedCharacterInUnquotedAttributeValue,
        ErrorCode::UnexpectedEqualsSignBeforeAttributeName,
        ErrorCode::UnexpectedNullCharacter,
        ErrorCode::UnexpectedSolidusInTag,
        ErrorCode::UnknownNamedCharacterReference,
        ErrorCode::UnexpectedQuestionMarkInsteadOfTagName,
        ErrorCode::TooManyAttributes,
        ErrorCode::TokenTooLong,
    ];

    /// The code as the standard spells it, e.g. `"eof-in-tag"`.
    ///
    /// ```
    /// assert_eq!(htmltok::ErrorCode::NestedComment.as_str(), "nested-comment");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::AbruptClosingOfEmptyComment => "abrupt-closing-of-empty-comment",
            ErrorCode::AbruptDoctypePublicIdentifier => "abrupt-doctype-public-identifier",
            ErrorCode::AbruptDoctypeSystemIdentifier => "abrupt-doctype-system-identifier",
            ErrorCode::AbsenceOfDigitsInNumericCharacterReference => {
                "absence-of-digits-in-numeric-character-reference"
            }
            ErrorCode::CdataInHtmlContent => "cdata-in-html-content",
            ErrorCode::CharacterReferenceOutsideUnicodeRange => {
                "character-reference-outside-unicode-range"
            }
            ErrorCode::ControlCharacterInInputStream => "control-character-in-input-stream",
            ErrorCode::ControlCharacterReference => "control-character-reference",
            ErrorCode::DisallowedProcessingInstructionTarget => {
                "disallowed-processing-instruction-target"
            }
            ErrorCode::DuplicateAttribute => "duplicate-attribute",
            ErrorCode::EndTagWithAttributes => "end-tag-with-attributes",
            ErrorCode::EndTagWithTrailingSolidus => "end-tag-with-trailing-solidus",
            ErrorCode::EofBeforeTagName => "eof-before-tag-name",
            ErrorCode::EofInCdata => "eof-in-cdata",
            ErrorCode::EofInComment => "eof-in-comment",
            ErrorCode::EofInDoctype => "eof-in-doctype",
            ErrorCode::EofInProcessingInstruction => "eof-in-processing-instruction",
            ErrorCode::EofInScriptHtmlCommentLikeText => "eof-in-script-html-comment-like-text",
            ErrorCode::EofInTag => "eof-in-tag",
            ErrorCode::IncorrectlyClosedComment => "incorrectly-closed-comment",
            ErrorCode::IncorrectlyOpenedComment => "incorrectly-opened-comment",
            ErrorCode::InvalidCharacterSequenceAfterDoctypeName => {
                "invalid-character-sequence-after-doctype-name"
            }
            ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget => {
                "invalid-first-character-of-processing-instruction-target"
            }
            ErrorCode::InvalidFirstCharacterOfTagName => "invalid-first-character-of-tag-name",
            ErrorCode::InvalidProcessingInstructionTarget => {
                "invalid-processing-instruction-target"
            }
            ErrorCode::MissingAttributeValue => "missing-attribute-value",
            ErrorCode::MissingDoctypeName => "missing-doctype-name",
            ErrorCode::MissingDoctypePublicIdentifier => "missing-doctype-public-identifier",
            ErrorCode::MissingDoctypeSystemIdentifier => "missing-doctype-system-identifier",
            ErrorCode::MissingEndTagName => "missing-end-tag-name",
            ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier => {
                "missing-quote-before-doctype-public-identifier"
            }
            ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier => {
                "missing-quote-before-doctype-system-identifier"
            }
            ErrorCode::MissingSemicolonAfterCharacterReference => {
                "missing-semicolon-after-character-reference"
            }
            ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword => {
                "missing-whitespace-after-doctype-public-keyword"
            }
            ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword => {
                "missing-whitespace-after-doctype-system-keyword"
            }
            ErrorCode::MissingWhitespaceBeforeDoctypeName => {
                "missing-whitespace-before-doctype-name"
            }
            ErrorCode::MissingWhitespaceBetweenAttributes => {
                "missing-whitespace-between-attributes"
            }
            ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers => {
                "missing-whitespace-between-doctype-public-and-system-identifiers"
            }
            ErrorCode::NestedComment => "nested-comment",
            ErrorCode::NoncharacterCharacterReference => "noncharacter-character-reference",
            ErrorCode::NoncharacterInInputStream => "noncharacter-in-input-stream",
            ErrorCode::NonVoidHtmlElementStartTagWithTrailingSolidus => {
                "non-void-html-element-start-tag-with-trailing-solidus"
            }
            ErrorCode::NullCharacterReference => "null-character-reference",
            ErrorCode::SurrogateCharacterReference => "surrogate-character-reference",
            ErrorCode::SurrogateInInputStream => "surrogate-in-input-stream",
            ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier => {
                "unexpected-character-after-doctype-system-identifier"
            }
            ErrorCode::UnexpectedCharacterInAttributeName => {
                "unexpected-character-in-attribute-name"
            }
            ErrorCode::UnexpectedCharacterInUnquotedAttributeValue => {
                "unexpected-character-in-unquoted-attribute-value"
            }
            ErrorCode::UnexpectedEqualsSignBeforeAttributeName => {
                "unexpected-equals-sign-before-attribute-name"
            }
            ErrorCode::UnexpectedNullCharacter => "unexpected-null-character",
            ErrorCode::UnexpectedSolidusInTag => "unexpected-solidus-in-tag",
            ErrorCode::UnknownNamedCharacterReference => "unknown-named-character-reference",
            ErrorCode::UnexpectedQuestionMarkInsteadOfTagName => {
                "unexpected-question-mark-instead-of-tag-name"
            }
            ErrorCode::TooManyAttributes => "too-many-attributes",
            ErrorCode::TokenTooLong => "token-too-long",
        }
    }

    /// The code for a spec spelling, if there is one.
    ///
    /// ```
    /// use htmltok::ErrorCode;
    /// assert_eq!(ErrorCode::from_code("nested-comment"), Some(ErrorCode::NestedComment));
    /// assert_eq!(ErrorCode::from_code("no-such-error"), None);
    /// ```
    pub fn from_code(code: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == code)
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One parse error: what went wrong and where.
///
/// `span.start` is the byte offset in the whole input (for a stream: in the
/// whole stream) of the character the standard raises the error at; at end of
/// file it is the input length. Line and column (`location`) are computed
/// when the error is recorded, which only happens with errors on: a
/// tokenizer that does not collect errors pays nothing for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The spec code.
    pub code: ErrorCode,
    /// Where: `start` is the offset the error is reported at, `end` the end of
    /// the offending character (equal to `start` at end of file).
    pub span: Span,
    /// Line and column of `span.start`: 1-based, columns in UTF-16 code
    /// units, CR and CRLF counted as one line break.
    pub location: LineCol,
}
