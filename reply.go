package acpdialect

import "encoding/json"

var emptyObject = []byte("{}")

// appendReply appends {"jsonrpc":"2.0","id":<id>,"result":<result>}\n with
// the id bytes exactly as received.
func appendReply(b []byte, id string, result []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, "}\n"...)
}

// appendError appends a JSON-RPC error response.
func appendError(b []byte, id string, e RPCError) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"error":{"code":`...)
	b = appendInt(b, int64(e.Code))
	b = append(b, `,"message":`...)
	b = appendJSONString(b, e.Message)
	if len(e.Data) > 0 && json.Valid([]byte(e.Data)) {
		b = append(b, `,"data":`...)
		b = append(b, e.Data...)
	}
	return append(b, "}}\n"...)
}

func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

// appendJSONString appends s as a JSON string. Messages are ours and plain,
// but escape the characters JSON requires anyway.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '"' || ch == '\\':
			b = append(b, '\\', ch)
		case ch < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[ch>>4], hex[ch&0xf])
		default:
			b = append(b, ch)
		}
	}
	return append(b, '"')
}
