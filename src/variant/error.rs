//! Errors of variant loading: every problem with the file, line, column and key it is about.

use std::fmt;

/// One problem in a variant file: which file, where, which key, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The file (path, or `<built-in NAME.toml>`) the value was written in.
    pub file: String,
    /// Line from 1; 0 when the problem has no place (a missing key).
    pub line: usize,
    /// Column from 1 (characters); 0 with `line`.
    pub column: usize,
    /// The key path, as `board.files` or `pieces.K.betza`.
    pub field: String,
    /// What is wrong, for people.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: `{}`: {}",
                self.file, self.line, self.column, self.field, self.message
            )
        } else {
            write!(f, "{}: `{}`: {}", self.file, self.field, self.message)
        }
    }
}

/// Why a variant could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariantError {
    /// No variant file goes by that name (neither a file nor a built-in short name).
    Unknown {
        /// The name asked for.
        name: String,
        /// The short names that exist.
        known: Vec<String>,
    },
    /// The file exists but cannot be read (not a regular file, too large, an I/O error).
    Unreadable {
        /// The path.
        file: String,
        /// Why.
        message: String,
    },
    /// The text is not a valid variant: every problem found, at least one.
    Invalid(Vec<FieldError>),
}

impl VariantError {
    /// The located problems (empty for `Unknown` and `Unreadable`).
    pub fn problems(&self) -> &[FieldError] {
        match self {
            VariantError::Invalid(p) => p,
            _ => &[],
        }
    }

    /// One problem at a place, as the checks report them.
    pub(crate) fn one(e: FieldError) -> VariantError {
        VariantError::Invalid(vec![e])
    }
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Unknown { name, known } => write!(
                f,
                "unknown variant `{name}`: no such file (also tried `{name}.toml`); give a path to \
                 a variant file or one of: {}",
                known.join(", ")
            ),
            VariantError::Unreadable { file, message } => {
                write!(f, "{file}: cannot read the variant file: {message}")
            }
            VariantError::Invalid(problems) => {
                let n = problems.len();
                write!(
                    f,
                    "invalid variant file ({n} problem{})",
                    if n == 1 { "" } else { "s" }
                )?;
                for e in problems {
                    write!(f, "\n  {e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for VariantError {}

/// Line and column (both from 1, the column in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}
