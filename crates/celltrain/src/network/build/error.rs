//! Why a network could not be built.

use std::fmt;

/// Why a network could not be built; the scenario layer adds file, line and key — those of
/// the error's subject, when it has one (an error found only once the whole network is known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError(pub String, pub Option<Subject>);

/// The named part of a scenario an error is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject {
    Host(String),
    Vc(String),
    Flow(String),
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Host(n) => write!(f, "host '{n}'"),
            Subject::Vc(n) => write!(f, "VC '{n}'"),
            Subject::Flow(n) => write!(f, "flow '{n}'"),
        }
    }
}

impl BuildError {
    /// An error about `subject`, shown as "<subject>: <message>".
    pub fn about(subject: Subject, message: impl fmt::Display) -> Self {
        BuildError(format!("{subject}: {message}"), Some(subject))
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BuildError {}

pub(super) fn err<T>(msg: impl Into<String>) -> Result<T, BuildError> {
    Err(BuildError(msg.into(), None))
}
