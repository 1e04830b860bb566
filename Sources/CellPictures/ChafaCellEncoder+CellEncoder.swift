import TerminalGrid

extension ChafaCellEncoder: CellEncoder {}
