package acpdialect

import (
	"testing"
	"unsafe"
)

// TestKindSizes holds the sizes Payload.Size counts to the structs as they
// are: a field added to a kind object must move its constant, or the byte
// budget (Options.MaxBytes) undercounts every card of that kind. On 64-bit
// platforms, where the constants are measured.
func TestKindSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the sizes are those of 64-bit platforms")
	}
	for _, c := range []struct {
		name        string
		size, count uintptr
	}{
		{"Payload", unsafe.Sizeof(Payload{}), payloadSize},
		{"SubagentTask", unsafe.Sizeof(SubagentTask{}), subagentTaskSize},
		{"Generic", unsafe.Sizeof(Generic{}), genericSize},
		{"Shell", unsafe.Sizeof(Shell{}), shellSize},
		{"MCPTool", unsafe.Sizeof(MCPTool{}), mcpToolSize},
		{"Monitor", unsafe.Sizeof(Monitor{}), monitorSize},
		{"Wakeup", unsafe.Sizeof(Wakeup{}), wakeupSize},
		{"Tool", unsafe.Sizeof(Tool{}), toolSize},
		{"Chain", unsafe.Sizeof(Chain{}), chainSize},
	} {
		if want := sizeClass(c.size); c.count != want {
			t.Errorf("%s: Size counts %d bytes, the allocator gives its %d bytes %d", c.name, c.count, c.size, want)
		}
	}
}

// TestOverheadSizes holds the budget's other fixed costs to at least
// what their structs take; each also counts a map slot or a place in an
// order, estimated, so only the floor is pinned. A todo item lives in its
// list's array, where its size is exact.
func TestOverheadSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the sizes are those of 64-bit platforms")
	}
	// A card's payload is inside its toolState, counted by Payload.Size.
	if want := sizeClass(unsafe.Sizeof(toolState{})) - payloadSize; toolStateExtra != want {
		t.Errorf("a card counts %d bytes beside its payload, its struct takes %d", toolStateExtra, want)
	}
	if todoSize != unsafe.Sizeof(Todo{}) {
		t.Errorf("a todo item counts %d bytes, its struct takes %d", todoSize, unsafe.Sizeof(Todo{}))
	}
	for _, c := range []struct {
		name        string
		size, count uintptr
	}{
		{"request", unsafe.Sizeof(request{}), requestOverhead},
		{"session", unsafe.Sizeof(session{}), sessionOverhead},
		{"awaited", unsafe.Sizeof(awaited{}), awaitedOverhead},
		{"runLink", unsafe.Sizeof(runLink{}), runLinkOverhead},
		{"held message", unsafe.Sizeof(Event{}) + sizeClass(unsafe.Sizeof(Message{})), heldOverhead},
	} {
		if want := sizeClass(c.size); c.count < want {
			t.Errorf("%s: the budget counts %d bytes, under its struct's %d", c.name, c.count, want)
		}
	}
}

// sizeClass is the Go allocator's size class for a small object of n
// bytes (runtime/sizeclasses.go, up to 512 bytes).
func sizeClass(n uintptr) uintptr {
	for _, c := range []uintptr{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512} {
		if n <= c {
			return c
		}
	}
	return n
}
