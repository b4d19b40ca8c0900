//! The elements the main content's tree knows by name, and what each does
//! to the tree (implied end tags, scopes) and to the content (blocks,
//! boilerplate by name).

use crate::extract::text::Role;

/// An element the tree tells apart; every other name is [`Kind::Other`]
/// (interned by the tree for its end tags).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(super) enum Kind {
    /// The document: the tree's root, also what `html` and `body` are.
    Root,
    Head,
    Title,
    Meta,
    Link,
    Base,
    Style,
    Script,
    Noscript,
    Template,
    Iframe,
    Noembed,
    Noframes,
    Svg,
    Math,
    P,
    Div,
    Span,
    A,
    Article,
    Section,
    Main,
    Nav,
    Aside,
    Header,
    Footer,
    Address,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Hgroup,
    Ul,
    Ol,
    Li,
    Dl,
    Dt,
    Dd,
    Menu,
    Dir,
    Table,
    Caption,
    Thead,
    Tbody,
    Tfoot,
    Tr,
    Td,
    Th,
    Colgroup,
    Col,
    Pre,
    Code,
    Kbd,
    Samp,
    Listing,
    Xmp,
    Plaintext,
    Textarea,
    Blockquote,
    B,
    Strong,
    I,
    Em,
    Br,
    Hr,
    Img,
    Picture,
    Source,
    Video,
    Audio,
    Track,
    Embed,
    Object,
    Param,
    Canvas,
    Map,
    Area,
    Wbr,
    Input,
    Button,
    Select,
    Option,
    Optgroup,
    Form,
    Fieldset,
    Legend,
    Label,
    Figure,
    Figcaption,
    Details,
    Summary,
    Dialog,
    Center,
    Applet,
    Marquee,
    Frameset,
    Frame,
    Keygen,
    Basefont,
    Bgsound,
    Search,
    Other,
}

/// The element named `name` (lower case, as the tokenizer gives it).
pub(super) fn kind(name: &str) -> Kind {
    use Kind::*;
    match name {
        "html" | "body" => Root,
        "head" => Head,
        "title" => Title,
        "meta" => Meta,
        "link" => Link,
        "base" => Base,
        "style" => Style,
        "script" => Script,
        "noscript" => Noscript,
        "template" => Template,
        "iframe" => Iframe,
        "noembed" => Noembed,
        "noframes" => Noframes,
        "svg" => Svg,
        "math" => Math,
        "p" => P,
        "div" => Div,
        "span" => Span,
        "a" => A,
        "article" => Article,
        "section" => Section,
        "main" => Main,
        "nav" => Nav,
        "aside" => Aside,
        "header" => Header,
        "footer" => Footer,
        "address" => Address,
        "h1" => H1,
        "h2" => H2,
        "h3" => H3,
        "h4" => H4,
        "h5" => H5,
        "h6" => H6,
        "hgroup" => Hgroup,
        "ul" => Ul,
        "ol" => Ol,
        "li" => Li,
        "dl" => Dl,
        "dt" => Dt,
        "dd" => Dd,
        "menu" => Menu,
        "dir" => Dir,
        "table" => Table,
        "caption" => Caption,
        "thead" => Thead,
        "tbody" => Tbody,
        "tfoot" => Tfoot,
        "tr" => Tr,
        "td" => Td,
        "th" => Th,
        "colgroup" => Colgroup,
        "col" => Col,
        "pre" => Pre,
        "code" => Code,
        "kbd" => Kbd,
        "samp" => Samp,
        "listing" => Listing,
        "xmp" => Xmp,
        "plaintext" => Plaintext,
        "textarea" => Textarea,
        "blockquote" => Blockquote,
        "b" => B,
        "strong" => Strong,
        "i" => I,
        "em" => Em,
        "br" => Br,
        "hr" => Hr,
        "img" | "image" => Img,
        "picture" => Picture,
        "source" => Source,
        "video" => Video,
        "audio" => Audio,
        "track" => Track,
        "embed" => Embed,
        "object" => Object,
        "param" => Param,
        "canvas" => Canvas,
        "map" => Map,
        "area" => Area,
        "wbr" => Wbr,
        "input" => Input,
        "button" => Button,
        "select" => Select,
        "option" => Option,
        "optgroup" => Optgroup,
        "form" => Form,
        "fieldset" => Fieldset,
        "legend" => Legend,
        "label" => Label,
        "figure" => Figure,
        "figcaption" => Figcaption,
        "details" => Details,
        "summary" => Summary,
        "dialog" => Dialog,
        "center" => Center,
        "applet" => Applet,
        "marquee" => Marquee,
        "frameset" => Frameset,
        "frame" => Frame,
        "keygen" => Keygen,
        "basefont" => Basefont,
        "bgsound" => Bgsound,
        "search" => Search,
        _ => Other,
    }
}

impl Kind {
    /// What the element does to the page's text: [`text()`](crate::extract::text())'s
    /// rules, which read it by name.
    pub(super) fn role(self) -> Role {
        use Kind::*;
        match self {
            P | Div | H1 | H2 | H3 | H4 | H5 | H6 | Li | Dt | Dd | Blockquote | Section
            | Article | Header | Footer | Nav | Aside | Form | Hr | Address | Figure
            | Figcaption | Main | Details | Summary | Ul | Ol | Dl => Role::Block,
            Br => Role::Br,
            Tr | Table => Role::Row,
            Td | Th => Role::Cell,
            Pre | Listing => Role::Pre {
                block: true,
                lf: true,
            },
            Xmp | Plaintext => Role::Pre {
                block: true,
                lf: false,
            },
            Textarea => Role::Pre {
                block: false,
                lf: true,
            },
            Script | Style | Noscript | Iframe | Noembed | Noframes => Role::Hidden,
            Template => Role::Template,
            Title => Role::Title,
            Svg => Role::Svg,
            _ => Role::Inline,
        }
    }

    /// Elements with no content: never on the stack of open elements.
    pub(super) fn is_void(self) -> bool {
        use Kind::*;
        matches!(
            self,
            Area | Base
                | Basefont
                | Bgsound
                | Br
                | Col
                | Embed
                | Frame
                | Hr
                | Img
                | Input
                | Keygen
                | Link
                | Meta
                | Param
                | Source
                | Track
                | Wbr
        )
    }

    /// Start tags that close an open `p` (in button scope), as the tree
    /// builder's "in body" rules list them.
    pub(super) fn closes_p(self) -> bool {
        use Kind::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Center
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Header
                | Hgroup
                | Hr
                | Main
                | Menu
                | Nav
                | Ol
                | P
                | Pre
                | Section
                | Summary
                | Table
                | Ul
                | Listing
                | Plaintext
                | Xmp
                | Li
                | Dd
                | Dt
                | Search
        )
    }

    pub(super) fn is_heading(self) -> bool {
        use Kind::*;
        matches!(self, H1 | H2 | H3 | H4 | H5 | H6)
    }

    /// The standard's "special" elements: an end tag of an ordinary
    /// element does not close past one.
    pub(super) fn is_special(self) -> bool {
        use Kind::*;
        !matches!(
            self,
            Span | A
                | Code
                | Kbd
                | Samp
                | B
                | Strong
                | I
                | Em
                | Picture
                | Video
                | Audio
                | Canvas
                | Map
                | Option
                | Optgroup
                | Label
                | Legend
                | Svg
                | Math
                | Other
        )
    }

    /// The elements that bound "has an element in scope".
    pub(super) fn bounds_scope(self) -> bool {
        use Kind::*;
        matches!(
            self,
            Root | Applet | Caption | Table | Td | Th | Marquee | Object | Template
        )
    }

    /// The elements that bound "in table scope".
    pub(super) fn bounds_table_scope(self) -> bool {
        matches!(self, Kind::Root | Kind::Table | Kind::Template)
    }

    /// Elements on their own lines: text directly inside one is a
    /// paragraph of its own.
    pub(super) fn is_block(self) -> bool {
        use Kind::*;
        matches!(
            self,
            Root | P
                | Div
                | Article
                | Section
                | Main
                | Nav
                | Aside
                | Header
                | Footer
                | Address
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Hgroup
                | Ul
                | Ol
                | Li
                | Dl
                | Dt
                | Dd
                | Menu
                | Dir
                | Table
                | Caption
                | Thead
                | Tbody
                | Tfoot
                | Tr
                | Td
                | Th
                | Pre
                | Listing
                | Xmp
                | Plaintext
                | Blockquote
                | Form
                | Fieldset
                | Figure
                | Figcaption
                | Details
                | Summary
                | Dialog
                | Center
                | Search
        )
    }

    /// Elements whose content is no reading matter wherever they are:
    /// navigation, asides, controls, dialogs.
    pub(super) fn is_boilerplate(self) -> bool {
        use Kind::*;
        matches!(
            self,
            Nav | Aside
                | Button
                | Select
                | Input
                | Textarea
                | Dialog
                | Menu
                | Iframe
                | Object
                | Embed
                | Frameset
                | Search
                | Label
        )
    }
}
