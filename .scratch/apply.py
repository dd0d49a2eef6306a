import re, sys, json
sys.path.insert(0, '.scratch')
from obl import O
O["rbi-2025-09-15-payment-aggregators-master-direction"][1] = ("Aggregator","new-requirement","2025-09-15","It replaces the 2020/2021","Follow the single set of rules for online, physical and cross-border payment aggregation.")
O["rbi-2021-11-12-integrated-ombudsman-scheme"][0] = ("all","new-requirement","after 30 days unresolved, the complaint can go to the RBI Ombudsman","Customers must first complain","Resolve complaints made to you first: one still unresolved after 30 days can go to the RBI Ombudsman.")
def q(s): return json.dumps(s, ensure_ascii=False)
for slug, obs in O.items():
    p = f'content/circulars/{slug}.md'
    s = open(p).read()
    assert s.startswith('---\n')
    end = s.index('\n---\n', 4)
    front, body = s[4:end+1], s[end+5:]
    flat = ' '.join(body.split())
    lines = ['obligations:']
    for who, kind, dl, pre, what in obs:
        i = flat.find(pre)
        if i < 0: sys.exit(f'{slug}: prefix not found: {pre}')
        m = re.compile(r'[.!?](?=\s+[A-Z0-9"\'‘“(]|\s*$)').search(flat, i + len(pre))
        j = m.end() if m else len(flat)
        sent = flat[i:j]
        lines.append(f'  - appliesTo: [{who}]')
        lines.append(f'    what: {q(what)}')
        lines.append(f'    kind: {kind}')
        if dl:
            v = dl if re.match(r"^\d{4}-\d\d-\d\d$", dl) else q(dl)
            lines.append('    deadline: ' + v)
        lines.append(f'    source: {q(sent)}')
    front = front + '\n'.join(lines) + '\n'
    open(p, 'w').write('---\n' + front + '---\n' + body)
print(len(O))
