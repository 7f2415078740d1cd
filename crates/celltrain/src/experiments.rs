//! The experiments of the reproduction catalogue (`python/celltrain/reproductions/catalogue.toml`),
//! for the command line's answer to an experiment id given where a scenario is expected: many
//! experiments are run by `celltrain reproduce` from one or more built-ins, and are no scenario
//! of their own (`celltrain run T3`).

/// The catalogue, compiled in like the built-in scenarios.
const CATALOGUE: &str = include_str!("../../../python/celltrain/reproductions/catalogue.toml");

/// An experiment of the catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Experiment {
    pub id: String,
    pub title: String,
    /// What running it takes (the built-ins it uses), as the catalogue says.
    pub needs: String,
}

/// The experiment called `id` (case-insensitive), if the catalogue lists one.
pub fn find(id: &str) -> Option<Experiment> {
    let catalogue: toml::Table = toml::from_str(CATALOGUE).ok()?;
    let text = |e: &toml::Value, key: &str| e.get(key).and_then(toml::Value::as_str).unwrap_or_default().to_string();
    catalogue.get("experiment")?.as_array()?.iter().find_map(|e| {
        let found = text(e, "id");
        found.eq_ignore_ascii_case(id).then(|| Experiment {
            id: found,
            title: text(e, "title"),
            needs: text(e, "needs"),
        })
    })
}

/// What to tell a user who gave experiment `e` as a scenario: how it is run.
pub fn how_to_run(e: &Experiment) -> String {
    let builtins: Vec<&str> = crate::builtin::all()
        .iter()
        .map(|b| b.name)
        .filter(|name| name.strip_prefix(e.id.as_str()).is_some_and(|rest| rest.starts_with('-')))
        .collect();
    let scenarios = match builtins.as_slice() {
        [] => String::new(),
        names => format!(", or run its built-ins ({}) one by one", names.join(", ")),
    };
    format!(
        "{} ({}) is an experiment of the paper reproductions, not a scenario: `celltrain reproduce {}` (a command of the Python package) runs it{scenarios} \
         (it needs: {})",
        e.id, e.title, e.id, e.needs
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_experiments_are_found_with_what_runs_them() {
        let t3 = find("t3").expect("T3 is in the catalogue");
        assert_eq!(t3.id, "T3");
        let message = how_to_run(&t3);
        assert!(message.contains("`celltrain reproduce T3`") && message.contains("built-in T1"), "{message}");
        let a5 = how_to_run(&find("A5").expect("A5"));
        assert!(a5.contains("its built-ins (A5-tcp, A5-udp)"), "{a5}");
        assert_eq!(find("Z9"), None);
    }
}
