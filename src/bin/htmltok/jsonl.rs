//! JSON lines, written field by field: strings escaped by serde_json, no
//! intermediate values (a page's links are written as they are found).

use std::io::Write;

/// One JSON object being written into `out`; `end` closes it with a newline.
pub(crate) struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Object<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Object { out, first: true }
    }

    fn key(&mut self, key: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        string(self.out, key);
        self.out.push(b':');
    }

    pub(crate) fn str(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        string(self.out, value);
        self
    }

    /// A string, or `null`.
    pub(crate) fn opt_str(&mut self, key: &str, value: Option<&str>) -> &mut Self {
        match value {
            Some(value) => self.str(key, value),
            None => self.raw(key, "null"),
        }
    }

    pub(crate) fn num(&mut self, key: &str, value: u64) -> &mut Self {
        self.key(key);
        let _ = write!(self.out, "{value}");
        self
    }

    /// A number to one decimal (`null` if not finite, which JSON cannot
    /// write).
    pub(crate) fn float(&mut self, key: &str, value: f64) -> &mut Self {
        self.key(key);
        if value.is_finite() {
            let _ = write!(self.out, "{value:.1}");
        } else {
            self.out.extend_from_slice(b"null");
        }
        self
    }

    /// An object of counts, in the order given.
    pub(crate) fn counts<'k>(
        &mut self,
        key: &str,
        counts: impl IntoIterator<Item = (&'k str, u64)>,
    ) -> &mut Self {
        self.key(key);
        let mut inner = Object::new(self.out);
        for (k, n) in counts {
            inner.num(k, n);
        }
        inner.close();
        self
    }

    /// Already-written JSON.
    pub(crate) fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key);
        self.out.extend_from_slice(json.as_bytes());
        self
    }

    fn close(&mut self) {
        self.out.push(b'}');
    }

    /// Closes the object and ends the line.
    pub(crate) fn end(&mut self) {
        self.close();
        self.out.push(b'\n');
    }
}

/// `value` as a JSON string.
fn string(out: &mut Vec<u8>, value: &str) {
    // Writing into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
}
