//! The reader of an ncdu export: tokens from the lexer into the sink, entry by entry.

use super::*;

/// An open directory: its sequence number, device and merge position.
type Open = (u32, u64, Option<usize>);

pub(super) struct Parser<'s, R> {
    lx: Lexer<R>,
    key: Vec<u8>,
    name: Vec<u8>,
    scratch: Vec<u8>,
    sink: &'s mut Sink,
    mount: Option<Mount<'s>>,
    /// Entries of this file marked as hard links (`hlnkc`), for [`Metadata::hard_links`].
    hard_links: u64,
}

impl<'s, R: std::io::BufRead> Parser<'s, R> {
    pub(super) fn new(r: R, sink: &'s mut Sink, mount: Option<Mount<'s>>) -> Self {
        Parser {
            lx: Lexer::new(r),
            key: Vec::new(),
            name: Vec::new(),
            scratch: Vec::new(),
            sink,
            mount,
            hard_links: 0,
        }
    }

    /// The version and metadata, up to the root entry.
    pub(super) fn header(&mut self) -> Result<Metadata, ImportError> {
        check_magic(self.lx.head()?)?;
        let mut meta = Metadata::default();
        self.lx
            .expect(b'[', "'[' (an ncdu export starts with [1,)")?;
        meta.major = self.version("the major version")?;
        if meta.major != 1 {
            return Err(self.lx.error(format!(
                "unsupported format version {} (only version 1 exists)",
                meta.major
            )));
        }
        self.lx.expect(b',', "','")?;
        meta.minor = self.version("the minor version")?;
        self.lx.expect(b',', "','")?;
        self.metadata(&mut meta)?;
        self.lx.expect(b',', "','")?;
        self.lx.skip_ws()?;
        if self.lx.peek()? != Some(b'[') {
            let found = self.lx.peek()?;
            return Err(self
                .lx
                .unexpected(found, "'[' (the top-level entry must be a directory)"));
        }
        Ok(meta)
    }

    /// The root's name (the path it was scanned at), read from the start of an export.
    pub(super) fn root_name(mut self) -> Result<Vec<u8>, ImportError> {
        self.header()?;
        self.lx.expect(b'[', "'['")?;
        self.lx.skip_ws()?;
        let start = self.lx.pos();
        let (info, name_pos) = self.info(true)?;
        if !info.has_name {
            return Err(self
                .lx
                .error_at(start, "entry without a \"name\" (every entry needs one)"));
        }
        if self.name.is_empty() || self.name.contains(&0) {
            return Err(self.lx.error_at(name_pos, "the root needs a name (a path)"));
        }
        Ok(std::mem::take(&mut self.name))
    }

    pub(super) fn parse(mut self) -> Result<Metadata, ImportError> {
        let mut meta = self.header()?;
        self.entries()?;
        meta.hard_links = self.hard_links;
        self.lx.expect(b']', "']' (the end of the export)")?;
        self.lx.skip_ws()?;
        if let Some(b) = self.lx.peek()? {
            return Err(self.lx.unexpected(Some(b), "the end of the input"));
        }
        Ok(meta)
    }

    fn version(&mut self, what: &str) -> Result<u64, ImportError> {
        self.lx.skip_ws()?;
        match self.lx.number()? {
            Number::Unsigned(v) => Ok(v),
            Number::Other => Err(self.lx.error(format!("{what} must be a whole number"))),
        }
    }

    fn metadata(&mut self, meta: &mut Metadata) -> Result<(), ImportError> {
        self.lx.skip_ws()?;
        if self.lx.peek()? != Some(b'{') {
            return self.lx.skip_value(); // ncdu ignores it; so do we
        }
        self.lx.expect(b'{', "'{'")?;
        self.lx.skip_ws()?;
        if self.lx.peek()? == Some(b'}') {
            return self.lx.expect(b'}', "'}'");
        }
        loop {
            let known = self.lx.string(&mut self.key, KEY_MAX)?;
            self.lx.expect(b':', "':'")?;
            self.lx.skip_ws()?;
            let is_string = self.lx.peek()? == Some(b'"');
            match (known, self.key.as_slice(), is_string) {
                (true, b"progname" | b"progver", true) => {
                    self.lx.string(&mut self.scratch, 256)?;
                    let text = String::from_utf8_lossy(&self.scratch).into_owned();
                    if self.key == b"progname" {
                        meta.progname = Some(text);
                    } else {
                        meta.progver = Some(text);
                    }
                }
                (true, b"timestamp", false) => match self.lx.number()? {
                    Number::Unsigned(t) => meta.timestamp = Some(t),
                    Number::Other => {}
                },
                _ => self.lx.skip_value()?,
            }
            if self.lx.one_of(b",}", "',' or '}'")? == b'}' {
                return Ok(());
            }
        }
    }

    /// The root directory and everything in it. Open directories are a stack of (sequence
    /// number, device, merge position).
    fn entries(&mut self) -> Result<(), ImportError> {
        let mut open: Vec<Open> = Vec::new();
        self.lx.expect(b'[', "'['")?;
        match self.entry(None, true)? {
            Some(root) => open.push(root),
            None => return Err(self.lx.error("the root could not be added")),
        }
        while let Some(&(parent, dev, at)) = open.last() {
            if self.lx.one_of(b",]", "',' or ']'")? == b']' {
                open.pop();
                if let (Some(at), Some(m)) = (at, self.mount.as_mut()) {
                    m.graft.closing(self.sink, at)?;
                }
                self.sink.out.close();
                continue;
            }
            self.lx.skip_ws()?;
            let is_dir = match self.lx.peek()? {
                Some(b'[') => true,
                Some(b'{') => false,
                found => {
                    return Err(self
                        .lx
                        .unexpected(found, "'[' (a directory) or '{' (a file)"))
                }
            };
            if is_dir {
                self.lx.expect(b'[', "'['")?;
            }
            // None for a directory: left out of a merge (read_error keeps a directory)
            if let Some(opened) = self.entry(Some((parent, dev, at)), is_dir)? {
                open.push(opened);
            }
        }
        Ok(())
    }

    /// What a merge does with the entry just read in the directory at merge position
    /// `parent_at`: `None` when it is left out, or when what another part scanned there was
    /// read in its place; else its own merge position, if it has one.
    fn meet(
        &mut self,
        parent_at: Option<usize>,
        is_dir: bool,
        excluded: Option<bool>,
    ) -> Result<Option<Option<usize>>, ImportError> {
        let (Some(at_parent), Some(m)) = (parent_at, self.mount.as_mut()) else {
            return Ok(Some(None));
        };
        let meet = m.graft.meet(at_parent, &self.name, is_dir, excluded)?;
        let (Meet::Skip | Meet::Fill(_)) = meet else {
            return Ok(Some(match meet {
                Meet::Descend(here) => Some(here),
                _ => None,
            }));
        };
        if is_dir {
            self.skip_rest_of_dir()?;
        }
        if let (Meet::Fill(here), Some(m)) = (meet, self.mount.as_mut()) {
            m.graft.fill(self.sink, here)?;
        }
        Ok(None)
    }

    /// The rest of a directory left out, up to its closing ']'.
    fn skip_rest_of_dir(&mut self) -> Result<(), ImportError> {
        while self.lx.one_of(b",]", "',' or ']'")? == b',' {
            self.lx.skip_value()?;
        }
        Ok(())
    }

    /// Reads one info object and records the entry; returns its (sequence number, device) if
    /// it is a directory (now open), or None when it is not (or only an error: a file that
    /// could not be stat'ed).
    fn entry(&mut self, parent: Option<Open>, is_dir: bool) -> Result<Option<Open>, ImportError> {
        self.lx.skip_ws()?;
        let start = self.lx.pos();
        let (mut info, name_pos) = self.info(parent.is_none())?;
        if !info.has_name {
            return Err(self
                .lx
                .error_at(start, "entry without a \"name\" (every entry needs one)"));
        }
        if parent.is_some() {
            self.check_name(name_pos)?;
        } else if self.name.is_empty() || self.name.contains(&0) {
            return Err(self.lx.error_at(name_pos, "the root needs a name (a path)"));
        }
        let (parent_index, parent_dev, parent_at) = parent.unwrap_or((0, 0, None));
        let Some(mut at) = self.meet(parent_at, is_dir, info.excluded)? else {
            return Ok(None); // left out, or another part read in its place
        };
        if parent.is_none() {
            at = self.mount.as_ref().map(|m| m.at);
        }
        // a directory left out by a pattern that no part filled (a part never written?)
        let unfilled = match (&self.mount, parent, info.excluded) {
            (Some(m), Some(_), Some(false)) if is_dir => m.graft.unfilled_by(),
            _ => None,
        };
        info.unscanned |= unfilled.is_some();
        let dev = info.dev.unwrap_or(parent_dev);
        if info.read_error && !is_dir {
            self.sink.entry_failed(parent_index, &self.name);
            return Ok(None);
        }
        if self.sink.count >= u32::MAX - 2 {
            return Err(self
                .lx
                .error_at(start, "too many entries (more than 4 billion)"));
        }
        self.sink.count += 1;

        self.sink.check_time(&info)?;
        let (node, links) = self.node(&info, is_dir, dev);
        let unreadable = info.read_error;
        let extra = super::owner_of(info.uid, info.gid, info.mode);
        let key = (dev, info.ino.unwrap_or(0));
        self.sink.record_sharing(&info);
        let mount_name = self.mount.as_ref().and_then(|m| m.name);
        let seq = match (parent, is_dir, mount_name) {
            (None, _, None) => {
                self.sink.out.root(self.name.clone(), node, key, extra);
                0
            }
            (None, _, Some(name)) => self.sink.out.open_dir(node, name, key, extra),
            (Some(_), true, _) => {
                let seq = self.sink.out.open_dir(node, &self.name, key, extra);
                if let Some(by) = unfilled {
                    self.sink.unfilled(seq, &self.name, by);
                }
                seq
            }
            (Some(_), false, _) => {
                self.sink.out.add(node, &self.name, key, extra, links);
                return Ok(None);
            }
        };
        if unreadable {
            self.sink.dir_unreadable(seq);
        }
        Ok(Some((seq, dev, at)))
    }

    /// The entry's node as `info` describes it, and its link count where one is kept.
    fn node(&mut self, info: &Info, is_dir: bool, dev: u64) -> (Node, Option<u32>) {
        let kind = match (is_dir, info.mode) {
            (true, _) => EntryKind::Dir,
            (false, Some(mode)) => match mode & 0o170000 {
                0o040000 => EntryKind::Dir,
                0o100000 => EntryKind::File,
                0o120000 => EntryKind::Symlink,
                _ => EntryKind::Other,
            },
            (false, None) if info.notreg => EntryKind::Other,
            (false, None) => EntryKind::File,
        };
        let mut f = 0;
        if info.unscanned && is_dir {
            f |= flags::UNSCANNED;
        }
        if info.read_error {
            f |= flags::UNREADABLE;
        }
        match info.excluded {
            Some(true) => f |= flags::OTHER_FS,
            Some(false) => f |= flags::FILTERED,
            None => {}
        }
        let mut links = None;
        if info.hlnkc && !is_dir {
            self.hard_links += 1;
            let (linked, count) = self.sink.hard_link(dev, info.ino, info.nlink);
            f |= linked;
            links = count;
        }
        let mtime = i64::try_from(info.mtime.unwrap_or(0)).unwrap_or(i64::MAX);
        let mut node = Node::new(kind, info.dsize, info.asize, mtime, f);
        if info.unscanned && is_dir {
            node.entries = 0; // not an entry of any scan
        }
        (node, links)
    }

    /// A name below the root must be one a directory can hold.
    fn check_name(&self, pos: Pos) -> Result<(), ImportError> {
        let why = match super::bad_name(&self.name) {
            _ if self.name.is_empty() => "an empty name",
            Some(why) => why,
            None => return Ok(()),
        };
        Err(self.lx.error_at(pos, format!("{why} below the root")))
    }

    /// An info object: `{"name": …, …}`. Returns it and where its name starts.
    fn info(&mut self, is_root: bool) -> Result<(Info, Pos), ImportError> {
        let mut info = Info::default();
        let mut name_pos = self.lx.pos();
        self.lx.expect(b'{', "'{' (an entry's info object)")?;
        self.lx.skip_ws()?;
        if self.lx.peek()? == Some(b'}') {
            self.lx.expect(b'}', "'}'")?;
            return Ok((info, name_pos));
        }
        loop {
            let known = self.lx.string(&mut self.key, KEY_MAX)?;
            self.lx.expect(b':', "':'")?;
            self.lx.skip_ws()?;
            let key: &[u8] = if known { &self.key } else { b"" };
            match key {
                b"name" => {
                    name_pos = self.lx.pos();
                    let max = if is_root { ROOT_NAME_MAX } else { NAME_MAX + 1 };
                    if !self.lx.string(&mut self.name, max)? {
                        return Err(self.lx.error_at(name_pos, "name too long"));
                    }
                    info.has_name = true;
                }
                b"asize" => info.asize = self.unsigned("asize")?,
                b"dsize" => info.dsize = self.unsigned("dsize")?,
                b"dev" => info.dev = Some(self.unsigned("dev")?),
                b"ino" => info.ino = Some(self.unsigned("ino")?),
                b"nlink" => info.nlink = Some(self.unsigned("nlink")?),
                b"mtime" => info.mtime = Some(self.unsigned("mtime")?),
                b"uid" => info.uid = Some(self.unsigned("uid")?),
                b"gid" => info.gid = Some(self.unsigned("gid")?),
                b"mode" => info.mode = Some(self.unsigned("mode")?),
                b"hlnkc" => info.hlnkc = self.boolean("hlnkc")?,
                b"read_error" => info.read_error = self.boolean("read_error")?,
                b"notreg" => info.notreg = self.boolean("notreg")?,
                b"unscanned" => info.unscanned = self.boolean("unscanned")?,
                b"exclusive_bytes" => {
                    let v = self.unsigned("exclusive_bytes")?;
                    info.sharing.get_or_insert_with(Default::default).exclusive = v;
                }
                b"shared_bytes" => {
                    let v = self.unsigned("shared_bytes")?;
                    info.sharing.get_or_insert_with(Default::default).shared = v;
                }
                b"excluded" => {
                    self.lx.string(&mut self.scratch, KEY_MAX)?;
                    let other_fs = matches!(
                        self.scratch.as_slice(),
                        b"othfs" | b"otherfs" | b"kernfs" | b"frmlnk"
                    );
                    info.excluded = Some(other_fs);
                }
                _ => self.lx.skip_value()?,
            }
            if self.lx.one_of(b",}", "',' or '}'")? == b'}' {
                return Ok((info, name_pos));
            }
        }
    }

    fn unsigned(&mut self, key: &str) -> Result<u64, ImportError> {
        let pos = self.lx.pos();
        let ok = matches!(self.lx.peek()?, Some(b'-' | b'0'..=b'9'));
        match ok.then(|| self.lx.number()).transpose()? {
            Some(Number::Unsigned(v)) => Ok(v),
            _ => Err(self.lx.error_at(
                pos,
                format!("\"{key}\" must be a whole number from 0 to 2^64-1"),
            )),
        }
    }

    fn boolean(&mut self, key: &str) -> Result<bool, ImportError> {
        let pos = self.lx.pos();
        let ok = matches!(self.lx.peek()?, Some(b't' | b'f'));
        match ok.then(|| self.lx.literal()).transpose()? {
            Some(Some(b)) => Ok(b),
            _ => Err(self
                .lx
                .error_at(pos, format!("\"{key}\" must be true or false"))),
        }
    }
}
