package wiretap_test

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

func TestAlias(t *testing.T) {
	if got := wiretap.Alias("cursor/task"); got != "_cursor/task" {
		t.Fatalf("Alias = %q", got)
	}
}

// TestHandleExtensionClaims: a parked result is returned once, to the
// call with the alias and the exact params bytes; anything else is not
// handled.
func TestHandleExtensionClaims(t *testing.T) {
	tap, _ := newTap("cursor", wiretap.Options{})
	in := `{"jsonrpc":"2.0","id":1,"method":"cursor/task","params": {"toolCallId":"a"} }` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"cursor/task","params":{"toolCallId":"b"}}` + "\n"
	_, err := io.ReadAll(tap.Reader(strings.NewReader(in)))
	mustNoErr(t, err)
	calls := []struct {
		name    string
		method  string
		params  string
		handled bool
	}{
		{"vendor name, not the alias", "cursor/task", `{"toolCallId":"a"}`, false},
		{"other params", "_cursor/task", `{"toolCallId":"c"}`, false},
		{"params re-encoded", "_cursor/task", `{"toolCallId": "a"}`, false},
		{"exact params", "_cursor/task", `{"toolCallId":"a"}`, true},
		{"claimed once", "_cursor/task", `{"toolCallId":"a"}`, false},
		{"second frame", "_cursor/task", `{"toolCallId":"b"}`, true},
		{"other extension", "_zed/x", `{}`, false},
	}
	for _, c := range calls {
		res, events, handled, err := tap.HandleExtension(t.Context(), c.method, json.RawMessage(c.params))
		if handled != c.handled || err != nil {
			t.Fatalf("%s: handled = %v, err = %v", c.name, handled, err)
		}
		if !handled {
			if res != nil || events != nil {
				t.Fatalf("%s: unhandled call returned %v %v", c.name, res, events)
			}
			continue
		}
		if string(res.(json.RawMessage)) != "{}" || len(events) != 1 || events[0].Type != acpdialect.EventReply {
			t.Fatalf("%s: got %v %+v", c.name, res, events)
		}
	}
	if st := tap.Stats(); st.Claimed != 2 || st.Parked != 0 || st.Renamed != 2 || st.Unmatched != 4 {
		t.Fatalf("stats %+v", st)
	}
}

// TestHandleExtensionNotification: a renamed notification is handled with
// no result, and its events come back.
func TestHandleExtensionNotification(t *testing.T) {
	tap, rec := newTap("cursor", wiretap.Options{})
	_, err := io.ReadAll(tap.Reader(strings.NewReader(`{"jsonrpc":"2.0","method":"cursor/task","params":{}}`)))
	mustNoErr(t, err)
	res, events, handled, err := tap.HandleExtension(t.Context(), "_cursor/task", json.RawMessage(`{}`))
	if !handled || err != nil || res != nil || len(events) != 0 || len(rec.all()) != 0 {
		t.Fatalf("got %v %v %v %v, OnEvent %v", res, events, handled, err, rec.all())
	}
}

// TestParkedBound: results nobody claims are dropped oldest first, and
// their events go to OnEvent so that nothing is lost.
func TestParkedBound(t *testing.T) {
	tap, rec := newTap("cursor", wiretap.Options{MaxParked: 2})
	var in strings.Builder
	for _, id := range []string{"1", "2", "3", "4", "5"} {
		in.WriteString(`{"jsonrpc":"2.0","id":` + id + `,"method":"cursor/task","params":{"n":` + id + `}}` + "\n")
	}
	_, err := io.ReadAll(tap.Reader(strings.NewReader(in.String())))
	mustNoErr(t, err)
	var ids []string
	for _, ev := range rec.all() {
		ids = append(ids, string(ev.ID))
	}
	if strings.Join(ids, ",") != "1,2,3" {
		t.Fatalf("flushed reply ids %v, want 1,2,3", ids)
	}
	if st := tap.Stats(); st.Evicted != 3 || st.Parked != 2 {
		t.Fatalf("stats %+v", st)
	}
	for _, n := range []string{"4", "5"} {
		if _, _, ok, _ := tap.HandleExtension(t.Context(), "_cursor/task", json.RawMessage(`{"n":`+n+`}`)); !ok {
			t.Fatalf("n=%s not parked", n)
		}
	}
	if _, _, ok, _ := tap.HandleExtension(t.Context(), "_cursor/task", json.RawMessage(`{"n":1}`)); ok {
		t.Fatal("an evicted result was still handed out")
	}
}

// TestHandleExtensionError: a dialect that answers with an error gets an
// *acp.RequestError the SDK sends as is.
func TestHandleExtensionError(t *testing.T) {
	d := &acpdialect.Dialect{
		ID:    "x",
		Match: func(name, _ string) bool { return name == "x" },
		Methods: []acpdialect.Method{{Name: "x/ask", Kind: acpdialect.Request, Handle: func(gjson.Result) acpdialect.Action {
			return acpdialect.Action{Error: &acpdialect.RPCError{Code: -32000, Message: "no"}}
		}}},
	}
	conn := acpdialect.NewRegistry(d).NewConn(acpdialect.Options{Agent: "x"})
	tap := wiretap.New(conn, wiretap.Options{})
	got, err := io.ReadAll(tap.Reader(strings.NewReader(`{"id":1,"method":"x/ask","params":[1]}`)))
	mustNoErr(t, err)
	if string(got) != `{"id":1,"method":"_x/ask","params":[1]}` {
		t.Fatalf("got %s", got)
	}
	res, _, handled, err := tap.HandleExtension(t.Context(), "_x/ask", json.RawMessage(`[1]`))
	var re *acp.RequestError
	if !handled || res != nil || !errors.As(err, &re) || re.Code != -32000 || re.Message != "no" {
		t.Fatalf("got %v %v %v", res, handled, err)
	}
	if cs := tap.ConnStats(); cs.Replies != 1 {
		t.Fatalf("conn stats %+v", cs)
	}
}
