//! A stream fed from a [`std::io::Read`]: the read/feed/finish loop written once.

use std::io::{self, Read};

use crate::position::Lines;
use crate::stream::StreamTokenizer;
use crate::token::Token;
use crate::tokenizer::{AttributePolicy, ErrorPolicy, Flow, IgnoreErrors, KeepAttributes};

/// How many bytes each read asks for: the chunk size the README's stream
/// measurements use.
const CHUNK: usize = 64 * 1024;

/// A [`StreamTokenizer`] that reads its input from `R` as tokens are asked
/// for, from [`StreamTokenizer::from_reader`] or
/// [`StreamTokenizer::read_from`].
///
/// [`next_token`](Self::next_token) returns `Ok(None)` only when the input
/// has ended and [`Token::Eof`] has been handed out: a `while let` loop
/// over it ends by itself. Read errors come back as `Err`
/// ([`io::ErrorKind::Interrupted`] is retried); the tokenizer stays where it
/// was, so calling again goes on reading.
///
/// ```
/// use htmltok::{StreamTokenizer, Token};
///
/// fn titles(reader: impl std::io::Read) -> std::io::Result<Vec<String>> {
///     let mut tokens = StreamTokenizer::from_reader(reader);
///     let (mut in_title, mut titles) = (false, Vec::new());
///     while let Some(token) = tokens.next_token()? {
///         match token {
///             Token::StartTag(t) if t.name() == "title" => { in_title = true; titles.push(String::new()) }
///             Token::EndTag(t) if t.name() == "title" => in_title = false,
///             Token::Text(t) if in_title => titles.last_mut().unwrap().push_str(t.as_str()),
///             _ => {}
///         }
///     }
///     Ok(titles)
/// }
/// let page = "<title>Fish &amp; <Chips></title><p>menu";
/// assert_eq!(titles(page.as_bytes()).unwrap(), ["Fish & <Chips>"]);
/// ```
pub struct ReaderTokenizer<R, E: ErrorPolicy = IgnoreErrors, A: AttributePolicy = KeepAttributes> {
    stream: StreamTokenizer<E, A>,
    reader: R,
    buf: Box<[u8]>,
    /// The reader has said end of input, and the stream was finished.
    input_ended: bool,
}

impl StreamTokenizer {
    /// A stream of UTF-8 (the default [`Config`](crate::Config), parse
    /// errors off) read from `reader`; [`read_from`](Self::read_from) reads
    /// into a stream made otherwise (decoding, errors, options).
    pub fn from_reader<R: Read>(reader: R) -> ReaderTokenizer<R> {
        StreamTokenizer::new().read_from(reader)
    }
}

impl<E: ErrorPolicy, A: AttributePolicy> StreamTokenizer<E, A> {
    /// This stream, reading its input from `reader` as tokens are asked
    /// for.
    ///
    /// ```
    /// use htmltok::encoding::{Sniffer, WINDOWS_1251};
    /// use htmltok::{Config, StreamTokenizer, Token};
    ///
    /// // "Привет" in windows-1251, declared after a long head, as a file on disk.
    /// let mut page = format!("<title>t</title>{}<meta charset=windows-1251><p>", " ".repeat(2000)).into_bytes();
    /// page.extend_from_slice(b"\xcf\xf0\xe8\xe2\xe5\xf2");
    /// let mut tokens = StreamTokenizer::decoding(Sniffer::new(), Config::new()).read_from(&page[..]);
    /// let mut text = String::new();
    /// while let Some(token) = tokens.next_token()? {
    ///     if let Token::Text(t) = token {
    ///         text.push_str(t.as_str().trim());
    ///     }
    /// }
    /// assert_eq!(text, "tПривет");
    /// assert_eq!(tokens.stream().sniffed().unwrap().encoding, WINDOWS_1251);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn read_from<R: Read>(self, reader: R) -> ReaderTokenizer<R, E, A> {
        ReaderTokenizer {
            stream: self,
            reader,
            buf: vec![0; CHUNK].into_boxed_slice(),
            input_ended: false,
        }
    }
}

impl<R: Read, E: ErrorPolicy, A: AttributePolicy> ReaderTokenizer<R, E, A> {
    /// The next token, reading as much input as it takes; `Ok(None)` after
    /// [`Token::Eof`].
    pub fn next_token(&mut self) -> io::Result<Option<Token<'_>>> {
        if !self.take_token()? {
            return Ok(None);
        }
        Ok(self.stream.last_token())
    }

    /// [`next_token`](Self::next_token) with the [`Lines`] that give line
    /// and column of the token's offsets (see
    /// [`StreamTokenizer::next_token_with_lines`]).
    ///
    /// ```
    /// use htmltok::{StreamTokenizer, Token};
    /// let page = "<p>one\r\ntwo\n  <a href=/x>x</a>";
    /// let mut tokens = StreamTokenizer::from_reader(page.as_bytes());
    /// let mut found = Vec::new();
    /// while let Some((token, lines)) = tokens.next_token_with_lines()? {
    ///     match token {
    ///         Token::StartTag(tag) if tag.name() == "a" => {
    ///             let at = lines.line_col(tag.span().start);
    ///             found.push((at.line, at.col, tag.attribute("href").unwrap().to_owned()));
    ///         }
    ///         _ => {}
    ///     }
    /// }
    /// assert_eq!(found, [(3, 3, "/x".to_owned())]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn next_token_with_lines(&mut self) -> io::Result<Option<(Token<'_>, Lines<'_>)>> {
        if !self.take_token()? {
            return Ok(None);
        }
        Ok(self.stream.last_token_with_lines())
    }

    /// Hands every token to `f` until [`Token::Eof`] has been handed or
    /// `f` returns [`Flow::Stop`] (then taking tokens again goes on from
    /// the next one): the stream's
    /// [`for_each_token`](StreamTokenizer::for_each_token), reading as it
    /// goes. `f` may return `()` for [`Flow::Continue`].
    ///
    /// ```
    /// use htmltok::{StreamTokenizer, Token};
    /// let mut links = 0;
    /// StreamTokenizer::from_reader(&b"<a href=1>one</a> <a href=2>two</a>"[..]).for_each_token(|token| {
    ///     if matches!(token, Token::StartTag(t) if t.name() == "a") {
    ///         links += 1;
    ///     }
    /// })?;
    /// assert_eq!(links, 2);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn for_each_token<F, T>(&mut self, mut f: F) -> io::Result<()>
    where
        F: FnMut(Token<'_>) -> T,
        T: Into<Flow>,
    {
        loop {
            let mut stopped = false;
            self.stream.for_each_token(|token| {
                let flow = f(token).into();
                stopped = flow == Flow::Stop;
                flow
            });
            // After the end of the input, the stream hands out every token
            // up to the end-of-file one in one call.
            if stopped || self.input_ended {
                return Ok(());
            }
            self.fill()?;
        }
    }

    /// The stream, e.g. for [`errors`](StreamTokenizer::errors) or
    /// [`sniffed`](StreamTokenizer::sniffed).
    pub fn stream(&self) -> &StreamTokenizer<E, A> {
        &self.stream
    }

    /// The stream, e.g. for [`take_errors`](StreamTokenizer::take_errors)
    /// or a driven stream's [`set_state`](StreamTokenizer::set_state).
    pub fn stream_mut(&mut self) -> &mut StreamTokenizer<E, A> {
        &mut self.stream
    }

    /// The stream and the reader.
    pub fn into_parts(self) -> (StreamTokenizer<E, A>, R) {
        (self.stream, self.reader)
    }

    /// Takes the next token from the stream, reading until one is complete;
    /// `false` once the stream has handed out its last token. The token is
    /// dropped at once and lent again by `StreamTokenizer::last_token`: a
    /// loop that returned the borrowed token itself could not go on to feed
    /// the stream in the same function (the borrow checker holds a returned
    /// borrow for the whole loop).
    fn take_token(&mut self) -> io::Result<bool> {
        while self.stream.next_token().is_none() {
            // After the end of the input, `None` means the end-of-file
            // token has been handed out.
            if self.input_ended {
                return Ok(false);
            }
            self.fill()?;
        }
        Ok(true)
    }

    /// Reads the next chunk into the stream, or finishes it at the end of
    /// the input.
    fn fill(&mut self) -> io::Result<()> {
        loop {
            match self.reader.read(&mut self.buf) {
                Ok(0) => {
                    self.stream.finish();
                    self.input_ended = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.stream.feed(&self.buf[..n]);
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

impl<R, E: ErrorPolicy, A: AttributePolicy> std::fmt::Debug for ReaderTokenizer<R, E, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReaderTokenizer")
            .field("stream", &self.stream)
            .field("input_ended", &self.input_ended)
            .finish_non_exhaustive()
    }
}
