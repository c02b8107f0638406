// The explorer's Help menu: Manual, Glossary, Keyboard Shortcuts (read from the window's own menus) and About.
#pragma once

class QMainWindow;
class QMenu;

namespace gpuf {

// Fills `help` with its four entries; their windows are children of `window` and open without blocking it.
void populateHelpMenu(QMenu *help, QMainWindow *window);

} // namespace gpuf
