//! Why a network could not be built: a message, the named part of the scenario it is about
//! (when one is), and the field of that part at fault, so that the scenario layer can point
//! at the file, line and key without reading the message.

use std::fmt;

/// Why a network could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    /// The whole message, subject included ("VC 'x': pcr … exceeds …").
    pub message: String,
    /// The named part the error is about, when it was found only once the whole network was
    /// known (the scenario layer remembers where each part was written).
    pub subject: Option<Subject>,
    /// The field at fault, in the terms of the builder call that failed.
    pub field: Field,
}

/// The named part of a scenario an error is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject {
    Host(String),
    Vc(String),
    Flow(String),
}

/// Which field of a builder call (or of the subject) an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// A node's, VC's or flow's name (a duplicate).
    Name,
    /// A node's buffer.
    Buffer,
    /// A link's ends or rate.
    Link,
    /// A VC's or route's path.
    Path,
    /// A VC's peak cell rate.
    Pcr,
    /// A TCP configuration.
    Tcp,
    /// A UDP datagram's size.
    Datagram,
    /// A source's rate.
    Rate,
    /// An on/off source's periods.
    Period,
    /// The bottleneck link.
    Bottleneck,
    /// The simulation's duration or warm-up.
    Duration,
    /// A host adapter's shaping, tagging or PDU gap.
    Adapter,
    /// A VC's traffic contract.
    Contract,
    /// What to record.
    Record,
    /// A limit of the simulator (sizes that must fit its ids).
    Limit,
    /// ABR: the end systems' parameters, a VC's pairing, a switch's explicit-rate algorithm.
    Abr,
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
    /// An error in `field` of the call that failed.
    pub fn new(field: Field, message: impl Into<String>) -> Self {
        BuildError { message: message.into(), subject: None, field }
    }

    /// An error in `field` of `subject`, shown as "<subject>: <message>".
    pub fn about(subject: Subject, field: Field, message: impl fmt::Display) -> Self {
        BuildError { message: format!("{subject}: {message}"), subject: Some(subject), field }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for BuildError {}

/// Fails with an error in `field`.
pub(super) fn err<T>(field: Field, msg: impl Into<String>) -> Result<T, BuildError> {
    Err(BuildError::new(field, msg))
}
