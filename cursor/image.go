package cursor

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MethodGenerateImage is Cursor's image generation method, a notification
// or a request.
const MethodGenerateImage = "cursor/generate_image"

// ImageRejectReason is the default answer's reason: a client that generates
// images answers the request itself; any other gets Cursor's rejected
// outcome, which lets the turn go on.
const ImageRejectReason = "image generation is not supported by this client"

// HandleImage reads cursor/generate_image params into an image event, with
// Rejected(ImageRejectReason) as the default answer. Params that are not an
// object ask for nothing: they are rejected at once, with no event.
func HandleImage(params gjson.Result) acpdialect.Action {
	if !params.IsObject() {
		return acpdialect.Action{Result: imageRejected}
	}
	img := ParseImage(params)
	ev := eventWith(acpdialect.EventImage, img.ToolCallID, img)
	return acpdialect.Action{Result: imageRejected, Event: ev, Await: true}
}

// imageRejected is HandleImage's default answer, shared (see cancelled).
var imageRejected = Rejected(ImageRejectReason)

// ParseImage reads cursor/generate_image params in one pass. Fields of the
// wrong type are absent; of a key that appears twice the first counts.
// referenceImagePaths keeps its non-empty strings (nil when there are
// none: the field is omitted from the JSON).
func ParseImage(params gjson.Result) acpdialect.Image {
	var img acpdialect.Image
	var refs gjson.Result
	var seen uint8
	frame.Members(params, func(k string, v gjson.Result) bool {
		switch {
		case k == "toolCallId" && once(&seen, 1):
			img.ToolCallID = frame.View(v)
		case k == "description" && once(&seen, 2):
			img.Description = frame.View(v)
		case k == "filePath" && once(&seen, 4):
			img.FilePath = frame.View(v)
		case k == "referenceImagePaths" && once(&seen, 8):
			refs = v
		}
		return true
	})
	if refs.IsArray() {
		refs.ForEach(func(_, v gjson.Result) bool {
			if s := frame.View(v); s != "" {
				img.ReferenceImagePaths = append(img.ReferenceImagePaths, s)
			}
			return true
		})
	}
	ptrs := []*string{&img.ToolCallID, &img.Description, &img.FilePath}
	for i := range img.ReferenceImagePaths {
		ptrs = append(ptrs, &img.ReferenceImagePaths[i])
	}
	frame.Own(ptrs...)
	return img
}
