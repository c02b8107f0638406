// The one source of a precompiled-header target (tests/GpufTesting.cmake): compiling it builds the header.
