package claude

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Compaction update kinds (ACP's session-compaction RFD), sent to a client
// that declares session.compaction.
const (
	UpdateCompaction        = "compaction_update"
	UpdateCompactionSummary = "compaction_summary_chunk"
)

// CompactionEvent reads a compaction_update ({compactionId, status,
// summary?, error?} with Claude's figures in _meta.contextCompaction, or
// AIR's _meta.jetbrains.air.contextCompaction) or a
// compaction_summary_chunk ({compactionId, content}) into a compaction
// event. Statuses other than ACP's four are dropped.
func CompactionEvent(update gjson.Result) *acpdialect.Event {
	var c acpdialect.Compaction
	var stdErr string // ACP's error wins over the vendor's figures'
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch k {
		case "compactionId":
			fill(&c.CompactionID, r.String())
		case "status":
			if c.Status == "" {
				c.Status = acpdialect.CompactionStatus(r.String())
			}
		case "summary":
			fill(&c.Summary, joinText(r.Value()))
		case "content":
			fill(&c.Summary, chunkText(r))
		case "error":
			fill(&stdErr, errorText(r.Value()))
		case "_meta":
			readCompactionMeta(r, &c)
		}
	})
	if stdErr != "" {
		c.Error = stdErr
	}
	return &acpdialect.Event{Type: acpdialect.EventCompaction, Object: &c}
}

// chunkText reads a content block's text.
func chunkText(r *frame.Reader) string {
	var text string
	r.Object(func(k string) {
		if k == "text" {
			fill(&text, r.String())
		}
	})
	return text
}

// errorText reads an error: a string, or an object's message.
func errorText(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	return frame.View(v.Get("message"))
}

// readCompactionMeta reads contextCompaction, at _meta's top (Claude's,
// and AIR's before it moved) or under jetbrains.air (AIR's now); with both,
// the first in wire order wins, field by field. It reports whether
// jetbrains.air held a contextCompaction object: that marks AIR's compact
// tool call, which has no claudeCode.toolName.
func readCompactionMeta(r *frame.Reader, c *acpdialect.Compaction) (air bool) {
	r.Object(func(k string) {
		switch k {
		case "contextCompaction":
			readFigures(r, c)
		case "jetbrains":
			air = readAIRFigures(r, c) || air
		}
	})
	return air
}

// readAIRFigures reads jetbrains' air.contextCompaction, reporting whether
// it was an object.
func readAIRFigures(r *frame.Reader, c *acpdialect.Compaction) (found bool) {
	r.Object(func(k string) {
		if k == "air" {
			r.Object(func(k string) {
				if k == "contextCompaction" {
					found = readFigures(r, c) || found
				}
			})
		}
	})
	return found
}

// readFigures reads {trigger, preTokens, postTokens, durationMs, error},
// each unless already read, and reports whether they were an object.
func readFigures(r *frame.Reader, c *acpdialect.Compaction) bool {
	return r.Object(func(k string) {
		switch k {
		case "trigger":
			if c.Trigger == "" {
				c.Trigger = trigger(r.String())
			}
		case "preTokens":
			c.PreTokens = frame.Count(c.PreTokens, r.Value())
		case "postTokens":
			c.PostTokens = frame.Count(c.PostTokens, r.Value())
		case "durationMs":
			c.DurationMs = frame.Count(c.DurationMs, r.Value())
		case "error":
			fill(&c.Error, errorText(r.Value()))
		}
	})
}

// trigger returns the contract's trigger: auto (Claude says automatic;
// idle, from 0.101.0, is a /compact the adapter sent on its own while the
// session was idle: the user did not ask for it) or manual; another value
// as sent.
func trigger(s string) string {
	switch s {
	case "automatic", "auto", "idle":
		return "auto"
	case "manual":
		return "manual"
	}
	return strings.Clone(s)
}

// CompactToolEvent reads the synthetic compact tool call into a compaction
// event named by its tool call id: its status, and the figures in _meta
// (readCompactionMeta), then rawOutput. The call is Claude's (toolName
// "compact") or AIR's (no tool name, a _meta.jetbrains.air.contextCompaction
// object); nil for any other tool call. A test for "ompact" in the raw
// update comes first (it finds both compact" and contextCompaction), so
// other tool calls without a \u escape of printable ASCII (see escaped)
// cost two byte searches.
func CompactToolEvent(update gjson.Result) *acpdialect.Event {
	if !strings.Contains(update.Raw, "ompact") && !escaped(update.Raw) {
		return nil
	}
	u := frame.ReadToolUpdate(update)
	var c acpdialect.Compaction
	if !readCompactionMeta(frame.NewReader(u.Meta), &c) && ReadCode(u.Meta).ToolName != ToolCompact {
		return nil
	}
	c.CompactionID = frame.Str(u.ID)
	c.Status = acpdialect.CompactionStatus(frame.View(u.Status))
	readFigures(frame.NewReader(u.RawOutput), &c)
	return &acpdialect.Event{Type: acpdialect.EventCompaction, Object: &c}
}
