//! Typed indices into the arenas of a network (`Vec<T>` indexed by id).

/// Declares a `u32` index newtype that prints as `name#n`.
#[macro_export]
macro_rules! typed_id {
    ($(#[$m:meta])* $name:ident, $label:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub u32);
        impl $name {
            pub const fn index(self) -> usize {
                self.0 as usize
            }
            pub fn from_index(i: usize) -> Self {
                $name(u32::try_from(i).expect("arena index exceeds u32"))
            }
        }
        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($label, "#{}"), self.0)
            }
        }
        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Debug::fmt(self, f)
            }
        }
    };
}

typed_id!(/// A host or switch.
    NodeId, "node");
typed_id!(/// An output port: buffer, queues and scheduler in front of one unidirectional link.
    PortId, "port");
typed_id!(/// A unidirectional link (propagation only; serialisation belongs to the port).
    LinkId, "link");
typed_id!(/// A virtual circuit with its precomputed hop list.
    VcId, "vc");
typed_id!(/// An application flow (UDP stream, TCP connection, on/off source).
    FlowId, "flow");
typed_id!(/// A traffic source that needs periodic wake-ups.
    SourceId, "source");
typed_id!(/// An AAL5 frame (CPCS-PDU) in the frame arena.
    FrameId, "frame");
typed_id!(/// One end of a TCP connection.
    ConnId, "conn");
typed_id!(/// A flow's way through the network: packet hops and ATM VC segments.
    RouteId, "route");
