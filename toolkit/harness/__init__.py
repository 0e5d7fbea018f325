"""The host side shared by every operator: golden gates (CompareBf16 ...), ``.bin`` I/O, the C++
random generators the vendor's host programs use."""
