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
				c.Status = compactionStatus(r.String())
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

// readCompactionMeta reads contextCompaction, at _meta's top or under
// jetbrains.air.
func readCompactionMeta(r *frame.Reader, c *acpdialect.Compaction) {
	r.Object(func(k string) {
		switch k {
		case "contextCompaction":
			readFigures(r, c)
		case "jetbrains":
			r.Object(func(k string) {
				if k == "air" {
					r.Object(func(k string) {
						if k == "contextCompaction" {
							readFigures(r, c)
						}
					})
				}
			})
		}
	})
}

// readFigures reads {trigger, preTokens, postTokens, durationMs, error}.
func readFigures(r *frame.Reader, c *acpdialect.Compaction) {
	r.Object(func(k string) {
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

// trigger returns the contract's trigger: auto (Claude says automatic) or
// manual; another value as sent.
func trigger(s string) string {
	switch s {
	case "automatic", "auto":
		return "auto"
	case "manual":
		return "manual"
	}
	return strings.Clone(s)
}

func compactionStatus(s string) string {
	switch s {
	case "pending", acpdialect.CompactionInProgress:
		return acpdialect.CompactionInProgress
	case acpdialect.CompactionCompleted:
		return acpdialect.CompactionCompleted
	case acpdialect.CompactionFailed:
		return acpdialect.CompactionFailed
	case acpdialect.CompactionCancelled:
		return acpdialect.CompactionCancelled
	}
	return ""
}

// CompactToolEvent reads the synthetic compact tool call (toolName
// "compact") into a compaction event named by its tool call id: its status,
// and the figures in _meta.contextCompaction or rawOutput. nil for any
// other tool call; the test for compact" in the raw update comes first,
// so other tool calls without a \u escape of printable ASCII (see
// escaped) cost two byte searches (without the opening quote, which would
// stop the search at every quote of the update).
func CompactToolEvent(update gjson.Result) *acpdialect.Event {
	if !strings.Contains(update.Raw, `compact"`) && !escaped(update.Raw) {
		return nil
	}
	u := frame.ReadToolUpdate(update)
	if ReadCode(u.Meta).ToolName != ToolCompact {
		return nil
	}
	c := acpdialect.Compaction{CompactionID: frame.Str(u.ID), Status: compactionStatus(frame.View(u.Status))}
	r := frame.NewReader(u.Meta)
	r.Object(func(k string) {
		if k == "contextCompaction" {
			readFigures(r, &c)
		}
	})
	readFigures(frame.NewReader(u.RawOutput), &c)
	return &acpdialect.Event{Type: acpdialect.EventCompaction, Object: &c}
}
