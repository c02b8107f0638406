// What the views' suites include, precompiled once for all of them (tests/GpufTesting.cmake, GPUF_TEST_PCH): the
// suites' common headers and the Qt Widgets classes they drive.
#pragma once

#include "suite_core.h" // IWYU pragma: export

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPainter>
#include <QPushButton>
#include <QStyleFactory>
#include <QTableView>
#include <QTreeView>
#include <QWidget>
