//! `load`: parameters, overrides, substitution, and expansion of repeated elements.

use super::*;

const PARAMS: &str = "\
[params]
n_sources = 3
buffer = \"8192 cells\"
load = 0.9
tracing = false

[[host]]
names = \"src{i}\"
count = \"${n_sources}\"
label = \"${n_sources} sources, ${buffer}\"
";

fn set(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn load_err(text: &str, overrides: &[(&str, &str)]) -> String {
    load(src(text), &set(overrides)).unwrap_err().to_string()
}

fn host(l: &Loaded) -> &Table {
    let Value::Array(hosts) = &l.root.get("host").unwrap().value else { panic!() };
    let Value::Table(t) = &hosts[0].value else { panic!() };
    t
}

#[test]
fn defaults_in_declared_order_and_typed_substitution() {
    let l = loaded(PARAMS);
    assert_eq!(
        l.params,
        vec![
            ("n_sources".to_string(), ParamValue::Int(3)),
            ("buffer".to_string(), ParamValue::Str("8192 cells".into())),
            ("load".to_string(), ParamValue::Float(0.9)),
            ("tracing".to_string(), ParamValue::Bool(false)),
        ]
    );
    let h = host(&l);
    assert_eq!(h.get("count").unwrap().value, Value::Int(3));
    assert_eq!(h.get("label").unwrap().value, Value::Str("3 sources, 8192 cells".into()));
    // The substituted value keeps the span of the string that asked for it.
    let count = h.get("count").unwrap();
    assert_eq!(&PARAMS[count.span.clone()], "\"${n_sources}\"");
}

#[test]
fn overrides_are_read_as_toml_scalars() {
    let over = [("n_sources", "20"), ("buffer", "4096"), ("load", "1"), ("tracing", "true")];
    let l = load(src(PARAMS), &set(&over)).unwrap();
    let values: Vec<_> = l.params.iter().map(|(_, v)| v.clone()).collect();
    assert_eq!(values, [ParamValue::Int(20), ParamValue::Int(4096), ParamValue::Float(1.0), ParamValue::Bool(true)]);
    assert_eq!(host(&l).get("count").unwrap().value, Value::Int(20));
    let l = load(src(PARAMS), &set(&[("buffer", "2048 cells"), ("n_sources", "x")])).unwrap();
    assert_eq!(l.params[1].1, ParamValue::Str("2048 cells".into()));
    assert_eq!(host(&l).get("count").unwrap().value, Value::Str("x".into()));
    let l = load(src(PARAMS), &set(&[("n_sources", "4"), ("n_sources", "5")])).unwrap();
    assert_eq!(l.params[0].1, ParamValue::Int(5));
}

#[test]
fn unknown_parameter_is_named_with_the_declared_ones() {
    assert_eq!(
        load_err(PARAMS, &[("nsources", "5")]),
        "s.toml: params.nsources: unknown parameter 'nsources' (declared: n_sources, buffer, load, tracing)"
    );
    assert_eq!(load_err("a = 1\n", &[("x", "1")]), "s.toml: params.x: unknown parameter 'x' (declared: none)");
}

#[test]
fn undefined_reference_errors_at_the_using_string() {
    let text = "[params]\nn = 1\n\n[[host]]\nnames = \"h${m}\"\n";
    assert_eq!(load_err(text, &[]), "s.toml:5: host[1].names: undefined parameter 'm' (declared: n)");
    let text = "[params]\nn = 1\n[link]\nbetween = [[\"a\", \"${n}\"], [\"${q}\", \"b\"]]\n";
    assert_eq!(load_err(text, &[]), "s.toml:4: link.between[2][1]: undefined parameter 'q' (declared: n)");
    assert_eq!(
        load_err("[s]\nx = \"a ${n\"\n", &[]),
        "s.toml:2: s.x: unterminated parameter reference in \"a ${n\" (write ${name})"
    );
    assert_eq!(load_err("[s]\nx = \"${}\"\n", &[]), "s.toml:2: s.x: empty parameter reference '${}' (write ${name})");
}

#[test]
fn typed_value_errors_point_at_the_use_site() {
    let text = "[params]\nd = 5\n\n[link]\ndelay = \"${d}\"\n";
    let e = read_err(text, |root| root.req_table("link")?.req_duration("delay").map(drop));
    assert_eq!(e, "s.toml:5: link.delay: expected a string like \"5 ms\", found integer 5");
}

#[test]
fn params_section_rules() {
    assert_eq!(load_err("params = 3\n", &[]), "s.toml:1: params: expected a table, found integer 3");
    assert_eq!(
        load_err("[params]\nxs = [1, 2]\n", &[]),
        "s.toml:2: params.xs: a parameter's default must be a string, integer, float or boolean, found array"
    );
    assert_eq!(
        load_err("[params]\n\"n-1\" = 1\n", &[]),
        "s.toml:2: params.n-1: parameter names may use only letters, digits and '_', and must not start with a digit"
    );
    // [params] itself is not substituted, and the root view counts it as read.
    let l = loaded("[params]\na = \"${b}\"\n");
    assert_eq!(l.params[0].1, ParamValue::Str("${b}".into()));
    TableView::root(&l).finish().unwrap();
}

#[test]
fn syntax_error_line_through_load() {
    assert_eq!(
        load_err("[params]\nn = 1\n[[flow]\n", &[]).split(": ").take(2).collect::<Vec<_>>(),
        ["s.toml:3", "(syntax)"]
    );
}

const FLOWS: &str = "\
[params]
n = 3

[[flow]]
name = \"udp{i}\"
count = \"${n}\"
path = [\"src{i}\", \"sw1\", \"dst{i0}\"]
app = { kind = \"udp\", tag = \"x{i}-{i0}\", nested = { deep = [\"{i}\"] } }
weight = 2

[[flow]]
name = \"lone{i}\"

[[flow]]
name = \"none{i}\"
count = 0
bogus = 1
";

#[test]
fn expansion_with_count_from_a_parameter() {
    let l = load(src(FLOWS), &set(&[("n", "2")])).unwrap();
    let root = TableView::root(&l);
    let flows = root.array_of_tables("flow").unwrap();
    let copies = expand(&flows[0]).unwrap();
    assert_eq!(copies.len(), 2);
    let mut seen = Vec::new();
    for c in &copies {
        let f = c.view(&l.source);
        assert_eq!(f.path(), "flow[1]");
        let app = f.req_table("app").unwrap();
        let nested = app.req_table("nested").unwrap();
        seen.push((
            c.index,
            f.req_str("name").unwrap().to_string(),
            f.req_str_list("path").unwrap().join(","),
            app.req_str("tag").unwrap().to_string(),
            nested.req_str_list("deep").unwrap().join(""),
            f.req_int("weight").unwrap(),
        ));
        app.req_str("kind").unwrap();
        f.finish().unwrap();
        assert!(!f.contains("count"));
    }
    let want =
        |i: u64, n: &str, p: &str, t: &str, d: &str| (i, n.to_string(), p.to_string(), t.to_string(), d.to_string(), 2);
    assert_eq!(seen, [want(1, "udp1", "src1,sw1,dst0", "x1-0", "1"), want(2, "udp2", "src2,sw1,dst1", "x2-1", "2"),]);
    // No count: one copy with i = 1.
    let lone = expand(&flows[1]).unwrap();
    assert_eq!(lone.len(), 1);
    assert_eq!(lone[0].view(&l.source).req_str("name").unwrap(), "lone1");
    // count = 0: no copies, and the element's keys are not reported as unknown.
    assert!(expand(&flows[2]).unwrap().is_empty());
    root.finish().unwrap();
}

#[test]
fn expansion_errors_name_the_count_key() {
    let text = "[params]\nn = -1\n[[flow]]\nname = \"a\"\n[[flow]]\ncount = \"${n}\"\n";
    let e = read_err(text, |root| {
        for f in root.array_of_tables("flow")? {
            expand(&f)?;
        }
        Ok(())
    });
    assert_eq!(e, "s.toml:6: flow[2].count: expected an integer ≥ 0, found integer -1");
    let e = read_err("[[h]]\ncount = \"3\"\n", |root| expand(&root.array_of_tables("h")?[0]).map(drop));
    assert_eq!(e, "s.toml:2: h[1].count: expected an integer ≥ 0, found string \"3\"");
    let e = read_err("[[h]]\ncount = 1000001\n", |root| expand(&root.array_of_tables("h")?[0]).map(drop));
    assert_eq!(e, "s.toml:2: h[1].count: count 1000001 is too large (at most 100000)");
}

#[test]
fn unknown_key_in_a_copy_is_reported_at_the_element() {
    let text = "[[host]]\nnames = \"h{i}\"\ncount = 2\nnmae = 1\n";
    let e = read_err(text, |root| {
        for h in root.array_of_tables("host")? {
            for c in expand(&h)? {
                let v = c.view(root.source());
                v.req_str("names")?;
                v.finish()?;
            }
        }
        root.finish()
    });
    assert_eq!(e, "s.toml:4: host[1].nmae: unknown key 'nmae' (expected one of: names)");
}

#[test]
fn index_placeholder_detection() {
    let l = loaded(FLOWS);
    let Value::Array(flows) = &l.root.get("flow").unwrap().value else { panic!() };
    assert!(has_index_placeholder(&flows[0]));
    assert!(has_index_placeholder(&flows[1]));
    let plain = loaded("a = { b = [\"x\", \"{j}\", \"{i\"] }\n");
    assert!(!table_has_index_placeholder(&plain.root));
    let nested = loaded("a = { b = [\"x\", [\"{i0}\"]] }\n");
    assert!(table_has_index_placeholder(&nested.root));
}
