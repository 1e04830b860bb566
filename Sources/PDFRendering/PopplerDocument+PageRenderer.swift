import RedlineCore

extension PopplerDocument: PageRenderer {}
