package cursor_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// imageParams is cursor/generate_image as the research notes give it.
const imageParams = `{"toolCallId":"tc-4","description":"A red fox","filePath":"assets/fox.png","referenceImagePaths":["a.png","b.png"]}`

func TestParseImage(t *testing.T) {
	tests := []struct {
		name, params string
		want         acpdialect.Image
	}{
		{"well-formed", imageParams, acpdialect.Image{ToolCallID: "tc-4", Description: "A red fox", FilePath: "assets/fox.png",
			ReferenceImagePaths: []string{"a.png", "b.png"}}},
		{"no optional fields", `{"toolCallId":"t","description":"d"}`, acpdialect.Image{ToolCallID: "t", Description: "d"}},
		{"empty references", `{"referenceImagePaths":[]}`, acpdialect.Image{}},
		{"non-string and empty references are skipped", `{"referenceImagePaths":["",1,null,{"p":"x"},["y"],"c.png"]}`,
			acpdialect.Image{ReferenceImagePaths: []string{"c.png"}}},
		{"wrong types are absent", `{"toolCallId":1,"description":false,"filePath":[],"referenceImagePaths":"a.png"}`, acpdialect.Image{}},
		{"extra fields", `{"size":"1024x1024","description":"d","n":2}`, acpdialect.Image{Description: "d"}},
		{"duplicate keys: first wins", `{"description":"a","description":"b","referenceImagePaths":["x"],"referenceImagePaths":["y"]}`,
			acpdialect.Image{Description: "a", ReferenceImagePaths: []string{"x"}}},
		{"unicode and escapes", `{"description":"caf\u00e9 \"x\"","filePath":"C:\\img\\🦊.png"}`,
			acpdialect.Image{Description: "café \"x\"", FilePath: `C:\img\🦊.png`}},
		{"params array", `[` + imageParams + `]`, acpdialect.Image{}},
		{"params null", `null`, acpdialect.Image{}},
		{"params missing", ``, acpdialect.Image{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, cursor.ParseImage(gjson.Parse(tc.params))); d != "" {
				t.Errorf("Image (-want +got):\n%s", d)
			}
		})
	}
}

func TestHandleImage(t *testing.T) {
	img := cursor.ParseImage(gjson.Parse(imageParams))
	want := acpdialect.Action{
		Result: cursor.Rejected(cursor.ImageRejectReason),
		Event:  &acpdialect.Event{Type: acpdialect.EventImage, ToolCallID: "tc-4", Object: &img},
		Await:  true,
	}
	if d := cmp.Diff(want, cursor.HandleImage(gjson.Parse(imageParams))); d != "" {
		t.Errorf("Action (-want +got):\n%s", d)
	}
	for _, bad := range []string{`null`, `[]`, `"x"`, ``} {
		want := acpdialect.Action{Result: cursor.Rejected(cursor.ImageRejectReason)}
		if d := cmp.Diff(want, cursor.HandleImage(gjson.Parse(bad))); d != "" {
			t.Errorf("params %q: Action (-want +got):\n%s", bad, d)
		}
	}
}
