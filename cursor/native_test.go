package cursor_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

const (
	spawnedUpdate = `{"sessionUpdate":"subagent_spawned","subagentSessionId":"c1","task":"Find the bug","name":"explorer",` +
		`"_meta":{"cursor":{"model":"composer-2","toolCallId":"tool-1"}}}`
	stateUpdate = `{"sessionUpdate":"subagent_state_update","subagentSessionId":"c1","state":"completed"}`
)

func spawned(toolCallID string, st acpdialect.SubagentTask) acpdialect.Late {
	st.Status = "running"
	return acpdialect.Late{ToolCallID: toolCallID, Payload: acpdialect.Payload{
		Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress, SubagentTask: &st}}
}

func TestHandleSpawned(t *testing.T) {
	tests := []struct {
		name, update string
		want         acpdialect.Late
	}{
		{"well-formed", spawnedUpdate, spawned("tool-1", acpdialect.SubagentTask{ChildSessionID: "c1", Description: "Find the bug",
			Name: "explorer", Model: "composer-2"})},
		{"no _meta: keyed by the child", `{"subagentSessionId":"c1","task":"t"}`, spawned("", acpdialect.SubagentTask{ChildSessionID: "c1", Description: "t"})},
		{"_meta without cursor", `{"subagentSessionId":"c1","_meta":{"other":{"toolCallId":"x"}}}`, spawned("", acpdialect.SubagentTask{ChildSessionID: "c1"})},
		{"_meta of the wrong shape", `{"subagentSessionId":"c1","_meta":{"cursor":"x"}}`, spawned("", acpdialect.SubagentTask{ChildSessionID: "c1"})},
		{"_meta.cursor wrong types", `{"subagentSessionId":"c1","_meta":{"cursor":{"model":1,"toolCallId":["t"]}}}`,
			spawned("", acpdialect.SubagentTask{ChildSessionID: "c1"})},
		{"wrong types are absent", `{"subagentSessionId":"c1","task":{"t":1},"name":7,"_meta":[]}`, spawned("", acpdialect.SubagentTask{ChildSessionID: "c1"})},
		{"extra fields", `{"a":1,"subagentSessionId":"c1","status":"x","_meta":{"z":0,"cursor":{"y":[],"toolCallId":"t"}}}`,
			spawned("t", acpdialect.SubagentTask{ChildSessionID: "c1"})},
		{"duplicate keys: first wins", `{"subagentSessionId":"c1","subagentSessionId":"c2","task":"a","task":"b",` +
			`"_meta":{"cursor":{"toolCallId":"t1","toolCallId":"t2"},"cursor":{"model":"m"}},"_meta":{"cursor":{"model":"n"}}}`,
			spawned("t1", acpdialect.SubagentTask{ChildSessionID: "c1", Description: "a"})},
		{"unicode and escapes", `{"subagentSessionId":"c\u0031","task":"fix \"x\"\n✓","name":"😀"}`,
			spawned("", acpdialect.SubagentTask{ChildSessionID: "c1", Description: "fix \"x\"\n✓", Name: "😀"})},
		{"no subagentSessionId", `{"task":"t","_meta":{"cursor":{"toolCallId":"tool-1"}}}`, acpdialect.Late{}},
		{"empty subagentSessionId", `{"subagentSessionId":"","task":"t"}`, acpdialect.Late{}},
		{"subagentSessionId not a string", `{"subagentSessionId":1,"task":"t"}`, acpdialect.Late{}},
		{"update array", `[` + spawnedUpdate + `]`, acpdialect.Late{}},
		{"update null", `null`, acpdialect.Late{}},
		{"update missing", ``, acpdialect.Late{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, cursor.HandleSpawned(gjson.Parse(tc.update))); d != "" {
				t.Errorf("Late (-want +got):\n%s", d)
			}
		})
	}
}

func TestHandleSubagentState(t *testing.T) {
	late := func(card, state string) acpdialect.Late {
		return acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: card,
			SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "c1", Status: state}}}
	}
	tests := []struct {
		name, update string
		want         acpdialect.Late
	}{
		{"completed", stateUpdate, late("completed", "completed")},
		{"failed", `{"subagentSessionId":"c1","state":"failed"}`, late("failed", "failed")},
		{"disconnected fails the card", `{"subagentSessionId":"c1","state":"disconnected"}`, late("failed", "disconnected")},
		{"cancelled", `{"subagentSessionId":"c1","state":"cancelled"}`, late("cancelled", "cancelled")},
		{"unknown state: no card status", `{"subagentSessionId":"c1","state":"paused"}`, late("", "paused")},
		{"case matters", `{"subagentSessionId":"c1","state":"Completed"}`, late("", "Completed")},
		{"no state", `{"subagentSessionId":"c1"}`, late("", "")},
		{"state not a string", `{"subagentSessionId":"c1","state":{"completed":true}}`, late("", "")},
		{"extra fields", `{"sessionUpdate":"subagent_state_update","error":"boom","subagentSessionId":"c1","state":"failed"}`, late("failed", "failed")},
		{"duplicate keys: first wins", `{"subagentSessionId":"c1","subagentSessionId":"c2","state":"failed","state":"completed"}`, late("failed", "failed")},
		{"escapes", `{"subagentSessionId":"c\u0031","state":"compl\u0065ted"}`, late("completed", "completed")},
		{"no subagentSessionId", `{"state":"completed"}`, acpdialect.Late{}},
		{"update string", `"completed"`, acpdialect.Late{}},
		{"update missing", ``, acpdialect.Late{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, cursor.HandleSubagentState(gjson.Parse(tc.update))); d != "" {
				t.Errorf("Late (-want +got):\n%s", d)
			}
		})
	}
}

func TestMergeLateNative(t *testing.T) {
	task := func(st acpdialect.SubagentTask) acpdialect.Payload { // a cursor/task half
		return acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &st}
	}
	spawn := spawned("tool-1", acpdialect.SubagentTask{ChildSessionID: "c1", Description: "spawn task", Name: "explorer", Model: "m2"}).Payload
	state := func(s string) acpdialect.Payload {
		return cursor.HandleSubagentState(gjson.Parse(`{"subagentSessionId":"c1","state":"` + s + `"}`)).Payload
	}
	tests := []struct {
		name      string
		cur, late acpdialect.Payload
		want      acpdialect.Payload
	}{
		{"spawn fills a tool call card", subagent(acpdialect.SubagentTask{Prompt: "p"}), spawn,
			subagent(acpdialect.SubagentTask{Prompt: "p", ChildSessionID: "c1", Description: "spawn task", Name: "explorer", Model: "m2", Status: "running"})},
		{"cursor/task's description wins over an earlier spawn", subagent(acpdialect.SubagentTask{Description: "task desc"}), spawn,
			subagent(acpdialect.SubagentTask{Description: "task desc", ChildSessionID: "c1", Name: "explorer", Model: "m2", Status: "running"})},
		{"cursor/task's description replaces a spawn's", spawn, task(acpdialect.SubagentTask{Description: "task desc", Prompt: "p", Model: "m1"}),
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress, SubagentTask: &acpdialect.SubagentTask{
				ChildSessionID: "c1", Description: "task desc", Prompt: "p", Name: "explorer", Model: "m1", Status: "running"}}},
		{"state replaces running", subagent(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "running", Name: "n"}), state("failed"),
			subagent(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed", Name: "n"})},
		{"empty values never blank", subagent(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "running", Name: "n", Description: "d"}),
			task(acpdialect.SubagentTask{}), subagent(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "running", Name: "n", Description: "d"})},
		{"a state with no status keeps the old one", subagent(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "running"}),
			cursor.HandleSubagentState(gjson.Parse(`{"subagentSessionId":"c1"}`)).Payload,
			subagent(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "running"})},
		{"card status is not the merger's", subagent(acpdialect.SubagentTask{}), state("completed"),
			subagent(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "completed"})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cur, late := tc.cur.Clone(), tc.late.Clone()
			curSt, lateSt := *cur.SubagentTask, *late.SubagentTask
			got, ok := cursor.MergeLate(cur, late)
			if !ok {
				t.Fatal("ok = false")
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("payload (-want +got):\n%s", d)
			}
			// cur's object never changes (events share it); a changed
			// subagent is late's object taken over, an unchanged one is
			// cur's, and then late's is left as it was.
			if !cur.SubagentTask.Equal(curSt) {
				t.Error("MergeLate changed cur's SubagentTask in place")
			}
			changed := !got.SubagentTask.Equal(curSt)
			if changed && got.SubagentTask != late.SubagentTask || !changed && got.SubagentTask != cur.SubagentTask {
				t.Errorf("changed %t: got the wrong object back", changed)
			}
			if !changed && !late.SubagentTask.Equal(lateSt) {
				t.Error("an unchanged merge changed late's SubagentTask")
			}
		})
	}
}

func TestDialectVendorMethods(t *testing.T) {
	d := cursor.Dialect()
	for _, m := range []string{cursor.MethodTask, cursor.MethodAskQuestion, cursor.MethodCreatePlan, cursor.MethodUpdateTodos, cursor.MethodGenerateImage} {
		if !d.Allows(m) || d.Allows("_"+m) {
			t.Errorf("allowlist for %s: %+v", m, d.Methods)
		}
		// Both forms are allowed: a request gets a reply.
		if _, _, ok := d.Reply(m, []byte(`{}`)); !ok {
			t.Errorf("%s is not allowed as a request", m)
		}
	}
	replies := map[string]string{
		cursor.MethodAskQuestion:   `{"outcome":{"outcome":"cancelled"}}`,
		cursor.MethodCreatePlan:    `{"outcome":{"outcome":"cancelled"}}`,
		cursor.MethodUpdateTodos:   `{}`,
		cursor.MethodGenerateImage: `{"outcome":{"outcome":"rejected","reason":"image generation is not supported by this client"}}`,
	}
	for m, want := range replies {
		res, rpcErr, _ := d.Reply(m, []byte(`{"toolCallId":"t"}`))
		if string(res) != want || rpcErr != nil {
			t.Errorf("Reply(%s) = %s, %v; want %s", m, res, rpcErr, want)
		}
	}
	kinds := map[string]func(gjson.Result) acpdialect.Late{}
	for _, u := range d.Updates {
		kinds[u.Kind] = u.Handle
	}
	if len(kinds) != 2 || kinds[cursor.UpdateSubagentSpawned] == nil || kinds[cursor.UpdateSubagentState] == nil {
		t.Errorf("Updates = %+v", d.Updates)
	}
	if cursor.UpdateSubagentSpawned != "subagent_spawned" || cursor.UpdateSubagentState != "subagent_state_update" {
		t.Error("update kinds must be Cursor's wire names")
	}
	if got := kinds[cursor.UpdateSubagentSpawned](gjson.Parse(spawnedUpdate)); got.ToolCallID != "tool-1" {
		t.Errorf("spawned handler: %+v", got)
	}
}
