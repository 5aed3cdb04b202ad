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

// Kinder is LineKind for the lines of one transcript in order: it names a
// response after the request it answers ("response to session/prompt"),
// where a request of the other side with the same id came before it.
type Kinder struct {
	Vendor string
	asked  [2]map[string]string // by direction (outbound, inbound): id -> method
}

// Kind names line, sent by the client when outbound.
func (k *Kinder) Kind(line []byte, outbound bool) string {
	kind := LineKind(line, outbound, k.Vendor)
	side := 0
	if outbound {
		side = 1
	}
	m, id := gjson.GetBytes(line, "method"), gjson.GetBytes(line, "id").Raw
	switch {
	case m.Exists() && id != "":
		if k.asked[side] == nil {
			k.asked[side] = map[string]string{}
		}
		k.asked[side][id] = m.Str
	case !m.Exists():
		// A response answers a request sent the other way.
		if method, ok := k.asked[1-side][id]; ok {
			return kind + " to " + method
		}
	}
	return kind
}
