//! The tokenizer states of the standard, named as its "Tokenization" section
//! (`tokenization`) names them.

/// A state of the tokenizer state machine.
///
/// Each variant is one state of the WHATWG HTML standard's "Tokenization"
/// section (<https://html.spec.whatwg.org/multipage/parsing.html#tokenization>), in
/// the standard's order; [`State::name`] gives its heading. A tree builder
/// switches the tokenizer into [`State::Rcdata`], [`State::Rawtext`],
/// [`State::ScriptData`] or [`State::Plaintext`] after certain start tags.
///
/// ```
/// use htmltok::State;
/// assert_eq!(State::from_name("RCDATA state"), Some(State::Rcdata));
/// assert_eq!(State::ScriptDataEscapedDashDash.name(), "Script data escaped dash dash state");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum State {
    /// Data state.
    Data,
    /// RCDATA state.
    Rcdata,
    /// RAWTEXT state.
    Rawtext,
    /// Script data state.
    ScriptData,
    /// PLAINTEXT state.
    Plaintext,
    /// Tag open state.
    TagOpen,
    /// End tag open state.
    EndTagOpen,
    /// Tag name state.
    TagName,
    /// RCDATA less-than sign state.
    RcdataLessThanSign,
    /// RCDATA end tag open state.
    RcdataEndTagOpen,
    /// RCDATA end tag name state.
    RcdataEndTagName,
    /// RAWTEXT less-than sign state.
    RawtextLessThanSign,
    /// RAWTEXT end tag open state.
    RawtextEndTagOpen,
    /// RAWTEXT end tag name state.
    RawtextEndTagName,
    /// Script data less-than sign state.
    ScriptDataLessThanSign,
    /// Script data end tag open state.
    ScriptDataEndTagOpen,
    /// Script data end tag name state.
    ScriptDataEndTagName,
    /// Script data escape start state.
    ScriptDataEscapeStart,
    /// Script data escape start dash state.
    ScriptDataEscapeStartDash,
    /// Script data escaped state.
    ScriptDataEscaped,
    /// Script data escaped dash state.
    ScriptDataEscapedDash,
    /// Script data escaped dash dash state.
    ScriptDataEscapedDashDash,
    /// Script data escaped less-than sign state.
    ScriptDataEscapedLessThanSign,
    /// Script data escaped end tag open state.
    ScriptDataEscapedEndTagOpen,
    /// Script data escaped end tag name state.
    ScriptDataEscapedEndTagName,
    /// Script data double escape start state.
    ScriptDataDoubleEscapeStart,
    /// Script data double escaped state.
    ScriptDataDoubleEscaped,
    /// Script data double escaped dash state.
    ScriptDataDoubleEscapedDash,
    /// Script data double escaped dash dash state.
    ScriptDataDoubleEscapedDashDash,
    /// Script data double escaped less-than sign state.
    ScriptDataDoubleEscapedLessThanSign,
    /// Script data double escape end state.
    ScriptDataDoubleEscapeEnd,
    /// Before attribute name state.
    BeforeAttributeName,
    /// Attribute name state.
    AttributeName,
    /// After attribute name state.
    AfterAttributeName,
    /// Before attribute value state.
    BeforeAttributeValue,
    /// Attribute value (double-quoted) state.
    AttributeValueDoubleQuoted,
    /// Attribute value (single-quoted) state.
    AttributeValueSingleQuoted,
    /// Attribute value (unquoted) state.
    AttributeValueUnquoted,
    /// After attribute value (quoted) state.
    AfterAttributeValueQuoted,
    /// Self-closing start tag state.
    SelfClosingStartTag,
    /// Bogus comment state.
    BogusComment,
    /// Markup declaration open state.
    MarkupDeclarationOpen,
    /// Comment start state.
    CommentStart,
    /// Comment start dash state.
    CommentStartDash,
    /// Comment state.
    Comment,
    /// Comment less-than sign state.
    CommentLessThanSign,
    /// Comment less-than sign bang state.
    CommentLessThanSignBang,
    /// Comment less-than sign bang dash state.
    CommentLessThanSignBangDash,
    /// Comment less-than sign bang dash dash state.
    CommentLessThanSignBangDashDash,
    /// Comment end dash state.
    CommentEndDash,
    /// Comment end state.
    CommentEnd,
    /// Comment end bang state.
    CommentEndBang,
    /// DOCTYPE state.
    Doctype,
    /// Before DOCTYPE name state.
    BeforeDoctypeName,
    /// DOCTYPE name state.
    DoctypeName,
    /// After DOCTYPE name state.
    AfterDoctypeName,
    /// After DOCTYPE public keyword state.
    AfterDoctypePublicKeyword,
    /// Before DOCTYPE public identifier state.
    BeforeDoctypePublicIdentifier,
    /// DOCTYPE public identifier (double-quoted) state.
    DoctypePublicIdentifierDoubleQuoted,
    /// DOCTYPE public identifier (single-quoted) state.
    DoctypePublicIdentifierSingleQuoted,
    /// After DOCTYPE public identifier state.
    AfterDoctypePublicIdentifier,
    /// Between DOCTYPE public and system identifiers state.
    BetweenDoctypePublicAndSystemIdentifiers,
    /// After DOCTYPE system keyword state.
    AfterDoctypeSystemKeyword,
    /// Before DOCTYPE system identifier state.
    BeforeDoctypeSystemIdentifier,
    /// DOCTYPE system identifier (double-quoted) state.
    DoctypeSystemIdentifierDoubleQuoted,
    /// DOCTYPE system identifier (single-quoted) state.
    DoctypeSystemIdentifierSingleQuoted,
    /// After DOCTYPE system identifier state.
    AfterDoctypeSystemIdentifier,
    /// Bogus DOCTYPE state.
    BogusDoctype,
    /// CDATA section state.
    CdataSection,
    /// CDATA section bracket state.
    CdataSectionBracket,
    /// CDATA section end state.
    CdataSectionEnd,
    /// Processing instruction open state.
    ProcessingInstructionOpen,
    /// Processing instruction target state.
    ProcessingInstructionTarget,
    /// After processing instruction target state.
    AfterProcessingInstructionTarget,
    /// Processing instruction data state.
    ProcessingInstructionData,
    /// Processing instruction questionable state.
    ProcessingInstructionQuestionable,
    /// Character reference state.
    CharacterReference,
    /// Named character reference state.
    NamedCharacterReference,
    /// Ambiguous ampersand state.
    AmbiguousAmpersand,
    /// Numeric character reference state.
    NumericCharacterReference,
    /// Hexadecimal character reference start state.
    HexadecimalCharacterReferenceStart,
    /// Hexadecimal character reference state.
    HexadecimalCharacterReference,
    /// Decimal character reference state.
    DecimalCharacterReference,
    /// Numeric character reference end state.
    NumericCharacterReferenceEnd,
}

impl State {
    /// Every state, in the standard's order.
    pub const ALL: &'static [State] = &[
        State::Data,
        State::Rcdata,
        State::Rawtext,
        State::ScriptData,
        State::Plaintext,
        State::TagOpen,
        State::EndTagOpen,
        State::TagName,
        State::RcdataLessThanSign,
        State::RcdataEndTagOpen,
        State::RcdataEndTagName,
        State::RawtextLessThanSign,
        State::RawtextEndTagOpen,
        State::RawtextEndTagName,
        State::ScriptDataLessThanSign,
        State::ScriptDataEndTagOpen,
        State::ScriptDataEndTagName,
        State::ScriptDataEscapeStart,
        State::ScriptDataEscapeStartDash,
        State::ScriptDataEscaped,
        State::ScriptDataEscapedDash,
        State::ScriptDataEscapedDashDash,
        State::ScriptDataEscapedLessThanSign,
        State::ScriptDataEscapedEndTagOpen,
        State::ScriptDataEscapedEndTagName,
        State::ScriptDataDoubleEscapeStart,
        State::ScriptDataDoubleEscaped,
        State::ScriptDataDoubleEscapedDash,
        State::ScriptDataDoubleEscapedDashDash,
        State::ScriptDataDoubleEscapedLessThanSign,
        State::ScriptDataDoubleEscapeEnd,
        State::BeforeAttributeName,
        State::AttributeName,
        State::AfterAttributeName,
        State::BeforeAttributeValue,
        State::AttributeValueDoubleQuoted,
        State::AttributeValueSingleQuoted,
        State::AttributeValueUnquoted,
        State::AfterAttributeValueQuoted,
        State::SelfClosingStartTag,
        State::BogusComment,
        State::MarkupDeclarationOpen,
        State::CommentStart,
        State::CommentStartDash,
        State::Comment,
        State::CommentLessThanSign,
        State::CommentLessThanSignBang,
        State::CommentLessThanSignBangDash,
        State::CommentLessThanSignBangDashDash,
        State::CommentEndDash,
        State::CommentEnd,
        State::CommentEndBang,
        State::Doctype,
        State::BeforeDoctypeName,
        State::DoctypeName,
        State::AfterDoctypeName,
        State::AfterDoctypePublicKeyword,
        State::BeforeDoctypePublicIdentifier,
        State::DoctypePublicIdentifierDoubleQuoted,
        State::DoctypePublicIdentifierSingleQuoted,
        State::AfterDoctypePublicIdentifier,
        State::BetweenDoctypePublicAndSystemIdentifiers,
        State::AfterDoctypeSystemKeyword,
        State::BeforeDoctypeSystemIdentifier,
        State::DoctypeSystemIdentifierDoubleQuoted,
        State::DoctypeSystemIdentifierSingleQuoted,
        State::AfterDoctypeSystemIdentifier,
        State::BogusDoctype,
        State::CdataSection,
        State::CdataSectionBracket,
        State::CdataSectionEnd,
        State::ProcessingInstructionOpen,
        State::ProcessingInstructionTarget,
        State::AfterProcessingInstructionTarget,
        State::ProcessingInstructionData,
        State::ProcessingInstructionQuestionable,
        State::CharacterReference,
        State::NamedCharacterReference,
        State::AmbiguousAmpersand,
        State::NumericCharacterReference,
        State::HexadecimalCharacterReferenceStart,
        State::HexadecimalCharacterReference,
        State::DecimalCharacterReference,
        State::NumericCharacterReferenceEnd,
    ];

    /// The state's heading in the standard, e.g. `"Tag open state"` (the
    /// names html5lib-tests uses for its `initialStates`).
    pub fn name(self) -> &'static str {
        match self {
            State::Data => "Data state",
            State::Rcdata => "RCDATA state",
            State::Rawtext => "RAWTEXT state",
            State::ScriptData => "Script data state",
            State::Plaintext => "PLAINTEXT state",
            State::TagOpen => "Tag open state",
            State::EndTagOpen => "End tag open state",
            State::TagName => "Tag name state",
            State::RcdataLessThanSign => "RCDATA less-than sign state",
            State::RcdataEndTagOpen => "RCDATA end tag open state",
            State::RcdataEndTagName => "RCDATA end tag name state",
            State::RawtextLessThanSign => "RAWTEXT less-than sign state",
            State::RawtextEndTagOpen => "RAWTEXT end tag open state",
            State::RawtextEndTagName => "RAWTEXT end tag name state",
            State::ScriptDataLessThanSign => "Script data less-than sign state",
            State::ScriptDataEndTagOpen => "Script data end tag open state",
            State::ScriptDataEndTagName => "Script data end tag name state",
            State::ScriptDataEscapeStart => "Script data escape start state",
            State::ScriptDataEscapeStartDash => "Script data escape start dash state",
            State::ScriptDataEscaped => "Script data escaped state",
            State::ScriptDataEscapedDash => "Script data escaped dash state",
            State::ScriptDataEscapedDashDash => "Script data escaped dash dash state",
            State::ScriptDataEscapedLessThanSign => "Script data escaped less-than sign state",
            State::ScriptDataEscapedEndTagOpen => "Script data escaped end tag open state",
            State::ScriptDataEscapedEndTagName => "Script data escaped end tag name state",
            State::ScriptDataDoubleEscapeStart => "Script data double escape start state",
            State::ScriptDataDoubleEscaped => "Script data double escaped state",
            State::ScriptDataDoubleEscapedDash => "Script data double escaped dash state",
            State::ScriptDataDoubleEscapedDashDash => "Script data double escaped dash dash state",
            State::ScriptDataDoubleEscapedLessThanSign => {
                "Script data double escaped less-than sign state"
            }
            State::ScriptDataDoubleEscapeEnd => "Script data double escape end state",
            State::BeforeAttributeName => "Before attribute name state",
            State::AttributeName => "Attribute name state",
            State::AfterAttributeName => "After attribute name state",
            State::BeforeAttributeValue => "Before attribute value state",
            State::AttributeValueDoubleQuoted => "Attribute value (double-quoted) state",
            State::AttributeValueSingleQuoted => "Attribute value (single-quoted) state",
            State::AttributeValueUnquoted => "Attribute value (unquoted) state",
            State::AfterAttributeValueQuoted => "After attribute value (quoted) state",
            State::SelfClosingStartTag => "Self-closing start tag state",
            State::BogusComment => "Bogus comment state",
            State::MarkupDeclarationOpen => "Markup declaration open state",
            State::CommentStart => "Comment start state",
            State::CommentStartDash => "Comment start dash state",
            State::Comment => "Comment state",
            State::CommentLessThanSign => "Comment less-than sign state",
            State::CommentLessThanSignBang => "Comment less-than sign bang state",
            State::CommentLessThanSignBangDash => "Comment less-than sign bang dash state",
            State::CommentLessThanSignBangDashDash => "Comment less-than sign bang dash dash state",
            State::CommentEndDash => "Comment end dash state",
            State::CommentEnd => "Comment end state",
            State::CommentEndBang => "Comment end bang state",
            State::Doctype => "DOCTYPE state",
            State::BeforeDoctypeName => "Before DOCTYPE name state",
            State::DoctypeName => "DOCTYPE name state",
            State::AfterDoctypeName => "After DOCTYPE name state",
            State::AfterDoctypePublicKeyword => "After DOCTYPE public keyword state",
            State::BeforeDoctypePublicIdentifier => "Before DOCTYPE public identifier state",
            State::DoctypePublicIdentifierDoubleQuoted => {
                "DOCTYPE public identifier (double-quoted) state"
            }
            State::DoctypePublicIdentifierSingleQuoted => {
                "DOCTYPE public identifier (single-quoted) state"
            }
            State::AfterDoctypePublicIdentifier => "After DOCTYPE public identifier state",
            State::BetweenDoctypePublicAndSystemIdentifiers => {
                "Between DOCTYPE public and system identifiers state"
            }
            State::AfterDoctypeSystemKeyword => "After DOCTYPE system keyword state",
            State::BeforeDoctypeSystemIdentifier => "Before DOCTYPE system identifier state",
            State::DoctypeSystemIdentifierDoubleQuoted => {
                "DOCTYPE system identifier (double-quoted) state"
            }
            State::DoctypeSystemIdentifierSingleQuoted => {
                "DOCTYPE system identifier (single-quoted) state"
            }
            State::AfterDoctypeSystemIdentifier => "After DOCTYPE system identifier state",
            State::BogusDoctype => "Bogus DOCTYPE state",
            State::CdataSection => "CDATA section state",
            State::CdataSectionBracket => "CDATA section bracket state",
            State::CdataSectionEnd => "CDATA section end state",
            State::ProcessingInstructionOpen => "Processing instruction open state",
            State::ProcessingInstructionTarget => "Processing instruction target state",
            State::AfterProcessingInstructionTarget => "After processing instruction target state",
            State::ProcessingInstructionData => "Processing instruction data state",
            State::ProcessingInstructionQuestionable => "Processing instruction questionable state",
            State::CharacterReference => "Character reference state",
            State::NamedCharacterReference => "Named character reference state",
            State::AmbiguousAmpersand => "Ambiguous ampersand state",
            State::NumericCharacterReference => "Numeric character reference state",
            State::HexadecimalCharacterReferenceStart => {
                "Hexadecimal character reference start state"
            }
            State::HexadecimalCharacterReference => "Hexadecimal character reference state",
            State::DecimalCharacterReference => "Decimal character reference state",
            State::NumericCharacterReferenceEnd => "Numeric character reference end state",
        }
    }

    /// The state with this heading, if any.
    ///
    /// ```
    /// assert_eq!(htmltok::State::from_name("Script data state"), Some(htmltok::State::ScriptData));
    /// ```
    pub fn from_name(name: &str) -> Option<State> {
        State::ALL.iter().copied().find(|s| s.name() == name)
    }
}
