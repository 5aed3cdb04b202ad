package cursor

import "strings"

// CommandDescription cleans a slash command's description. Cursor sends a
// placeholder of dashes ("---") for commands that have no description; a
// client would show it verbatim as if it meant something, so a description
// made only of dashes, once surrounding space is trimmed, becomes "".
// Kandev does the same for Cursor only (docs/cursor.md section 8:
// NormalizeCommandDescription). Anything else is unchanged.
func CommandDescription(s string) string {
	t := strings.TrimSpace(s)
	if t != "" && strings.Trim(t, "-") == "" {
		return ""
	}
	return s
}
