//! A TCP app's congestion control and loss recovery. `cc` and `recovery` choose them apart;
//! `variant` names a pair (today's names, each the pair it has always built) and either key
//! replaces its half. A pair that cannot run together is an error naming the key.

use super::{ScenarioError, TableView};
use celltrain_tcp::{CcKind, Policies, RecoveryKind, Variant};

/// The policies of an `app = { kind = "tcp", ... }` table; `stack_default` without any of
/// the keys (the BSD stack's is `variant = "reno"`).
pub(super) fn read(app: &TableView<'_>, stack_default: Policies) -> Result<Policies, ScenarioError> {
    let variants = Variant::ALL.map(Variant::name);
    let variant = app.opt_keyword("variant", &variants)?.and_then(Variant::from_name);
    let mut policies = variant.map_or(stack_default, Variant::policies);
    let ccs = CcKind::ALL.map(CcKind::name);
    let cc = app.opt_keyword("cc", &ccs)?.and_then(CcKind::from_name);
    let recoveries = RecoveryKind::ALL.map(RecoveryKind::name);
    let recovery = app.opt_keyword("recovery", &recoveries)?.and_then(RecoveryKind::from_name);
    policies.cc = cc.unwrap_or(policies.cc);
    policies.recovery = recovery.unwrap_or(policies.recovery);
    policies.check().map_err(|e| {
        let key = if recovery.is_some() { "recovery" } else { "cc" };
        app.key_error(key, e.to_string())
    })?;
    Ok(policies)
}
