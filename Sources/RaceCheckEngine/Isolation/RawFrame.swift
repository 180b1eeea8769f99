/// One frame of a captured stack as the crashed child reports it: an address and where it was loaded.
///
/// The child fills `module` and `offset` (`pc` minus the module's load bias) because only it knows
/// its own load addresses; the parent symbolizes from the module file on disk, so the offset,
/// not the pc, is what names the code. Either may be missing when `dladdr` found nothing.
///
/// ```swift
/// let frame = RawFrame(pc: 0x7f12_3456_7890, module: "/usr/lib/libdispatch.so", offset: 0x1_7890)
/// let stack = Symbolizer().symbolize([frame], firstFrameIsFault: true)
/// ```
package struct RawFrame: Hashable, Sendable {
  /// The frame's program counter in the process that captured it.
  package var pc: UInt
  /// The path of the loaded image that holds `pc`, as `dladdr` reported it.
  package var module: String?
  /// `pc` minus the image's load bias: the address to give `llvm-symbolizer --obj`.
  package var offset: UInt?

  /// Creates a frame from what the capturing process saw.
  package init(pc: UInt, module: String? = nil, offset: UInt? = nil) {
    self.pc = pc
    self.module = module
    self.offset = offset
  }
}
