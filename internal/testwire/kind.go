package testwire

import "github.com/tidwall/gjson"

// LineKind names the kind of a transcript line, for tables by kind: its
// method, "response" (or "client response" when outbound), or a
// session/update's kind, marked " +<vendor>" when its update has
// _meta.<vendor>.
func LineKind(line []byte, outbound bool, vendor string) string {
	m := gjson.GetBytes(line, "method")
	switch {
	case m.Exists() && m.Str != "session/update":
		return m.Str
	case m.Exists():
		u := gjson.GetBytes(line, "params.update")
		if u.Get("_meta." + vendor).Exists() {
			return u.Get("sessionUpdate").Str + " +" + vendor
		}
		return u.Get("sessionUpdate").Str
	case outbound:
		return "client response"
	}
	return "response"
}
